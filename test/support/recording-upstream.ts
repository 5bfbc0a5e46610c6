// An upstream for `serve`'s tests: a plain MCP server over stdio (no progressive disclosure of its
// own) that appends a JSON line to $RECORD_LOG for every tools/call and notifications/cancelled it
// receives — what it was really asked to do, seen from its side. Its tools: secret_op (any call of
// it unfetched is a breach), echo_op (returns its text), ask_user (asks the client to elicit, and
// returns the answer), progress_op (three progress notifications), hang_op (never answers), exit_op
// (the process exits with 9). LOOSE_NAMES=1 resolves names loosely (case, spaces, separators,
// look-alike letters, NUL), as some servers do; SPLIT_WRITES=1 writes each line in two pieces, cut
// inside a character.
import { appendFileSync } from 'node:fs';
import { asText } from '../../src/util/text.js';

type Message = {
  jsonrpc: '2.0';
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
};

const log = process.env.RECORD_LOG;
const record = (entry: Record<string, unknown>) => {
  if (log) appendFileSync(log, `${JSON.stringify(entry)}\n`);
};
const tools = ['secret_op', 'echo_op', 'ask_user', 'progress_op', 'hang_op', 'exit_op'].map((name) => ({
  name,
  description: `The ${name.replace('_', ' ')} tool of the recording upstream: it does what its name says.`,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
}));

function write(message: Message): void {
  const bytes = Buffer.from(`${JSON.stringify(message)}\n`);
  if (process.env.SPLIT_WRITES !== '1') {
    process.stdout.write(bytes);
    return;
  }
  // Cut inside a multi-byte character when there is one.
  const cut = Math.max(1, bytes.findIndex((b) => b >= 0xc0) + 1 || Math.floor(bytes.length / 2));
  process.stdout.write(bytes.subarray(0, cut));
  setTimeout(() => process.stdout.write(bytes.subarray(cut)), 20);
}

/** A name as a loose server takes it: case, spaces, separators, look-alike letters and NUL do not matter. */
function loosely(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/\u0000/g, '')
    .replace(/[\u0435]/g, 'e')
    .replace(/[\u043e]/g, 'o')
    .trim()
    .toLowerCase()
    .replace(/-/g, '_');
}

let nextAsk = 0;
const asked = new Map<number, (answer: Message) => void>();

function call(message: Message): void {
  const params = message.params ?? {};
  const asked_name = String(params.name);
  const name = process.env.LOOSE_NAMES === '1' ? loosely(asked_name) : asked_name;
  const args = (params.arguments ?? {}) as Record<string, unknown>;
  record({ call: asked_name, ran: name, args });
  const reply = (text: string) =>
    write({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text }] } });
  switch (name) {
    case 'secret_op':
      return reply('the secret operation ran');
    case 'echo_op':
      return reply(asText(args.text ?? ''));
    case 'ask_user': {
      // After a moment, so that other clients are active meanwhile.
      setTimeout(() => {
        const id = nextAsk++;
        asked.set(id, (answer) => reply(JSON.stringify(answer.result ?? answer.error ?? null)));
        write({
          jsonrpc: '2.0',
          id,
          method: 'elicitation/create',
          params: {
            message: `For ${asText(args.text ?? '')}: your name?`,
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
          },
        });
      }, 150);
      return;
    }
    case 'progress_op': {
      const token = (params._meta as { progressToken?: unknown } | undefined)?.progressToken;
      for (let k = 1; k <= 3; k++)
        setTimeout(
          () =>
            write({
              jsonrpc: '2.0',
              method: 'notifications/progress',
              params: { progressToken: token, progress: k, total: 3 },
            }),
          60 * k,
        );
      setTimeout(() => reply(`progress done for ${asText(args.text ?? '')}`), 250);
      return;
    }
    case 'hang_op':
      return;
    case 'exit_op': {
      setTimeout(() => process.exit(9), 100);
      return;
    }
    default:
      write({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: `Unknown tool: ${asked_name}` } });
  }
}

let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buffer += chunk;
  let newline: number;
  while ((newline = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    if (line.trim()) handle(JSON.parse(line) as Message);
  }
});
process.stdin.on('end', () => process.exit(0));

function handle(message: Message): void {
  if (message.method === undefined) {
    asked.get(Number(message.id))?.(message);
    if (typeof message.id === 'number') asked.delete(message.id);
    else record({ strayAnswer: message.id });
    return;
  }
  if (message.method === 'notifications/cancelled') return record({ cancelled: message.params?.requestId });
  if (message.id === undefined) return;
  const result = (value: unknown) => write({ jsonrpc: '2.0', id: message.id, result: value });
  switch (message.method) {
    case 'initialize':
      return result({
        protocolVersion: '2025-11-25',
        capabilities: { tools: {}, resources: {} },
        serverInfo: { name: 'recording-upstream', version: '1.0.0' },
      });
    case 'tools/list':
      return result({ tools });
    case 'resources/list':
      return result({ resources: [{ uri: 'file:///notes.txt', name: 'notes', mimeType: 'text/plain' }] });
    case 'resources/templates/list':
      return result({ resourceTemplates: [] });
    case 'resources/read': {
      const uri = String(message.params?.uri);
      // As some npm servers answer an unknown resource: an internal error that says so.
      if (uri !== 'file:///notes.txt')
        return write({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32603, message: `Resource not found: ${uri}` },
        });
      return result({ contents: [{ uri, mimeType: 'text/plain', text: 'the notes' }] });
    }
    case 'tools/call':
      return call(message);
    case 'ping':
      return result({});
    default:
      write({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32601, message: `Method not found: ${message.method}` },
      });
  }
}
