// A progressive-disclosure server with many tools, for the scale rows of `npm run bench`:
// `node pd-server.js 10000` serves tool_00001 … tool_10000 over stdio (raw JSON-RPC, no SDK, so
// the figures are the checker's, not a server library's). Generated at run time, never committed.
import { progressiveServer, serve, type FullDescription } from '../../fixtures/hostile/raw-server.js';

const count = Number(process.argv[2] ?? 1000);
const names = Array.from({ length: count }, (_, i) => `tool_${String(i + 1).padStart(5, '0')}`);
const tools = names.map((name, i) => ({
  name,
  description: `Reads record ${i + 1} of the archive and returns it as JSON.`,
}));
const full: FullDescription[] = names.map((name, i) => ({
  name,
  description: `Reads record ${i + 1} of the archive. Give the record's revision to read an older one; without it the latest is returned.`,
  inputSchema: {
    type: 'object',
    properties: { revision: { type: 'integer', minimum: 1 } },
    additionalProperties: false,
  },
  examples: [
    { description: 'The latest revision', input: {} },
    { description: 'Revision 2', input: { revision: 2 } },
  ],
}));
// A correct server validates its arguments (mcp-input-validation calls with a wrong type).
serve(
  progressiveServer(tools, full, (_name, args) => {
    const { revision, ...rest } = args;
    const bad = Object.keys(rest).length
      ? `unknown argument '${Object.keys(rest)[0]}'`
      : revision !== undefined && !(Number.isInteger(revision) && (revision as number) >= 1)
        ? "'revision' must be an integer >= 1"
        : undefined;
    return bad
      ? { isError: true, content: [{ type: 'text', text: `Invalid arguments: ${bad}` }] }
      : { content: [{ type: 'text', text: 'ok' }] };
  }),
);
