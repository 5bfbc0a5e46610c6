import { Command } from 'commander';
import { EXIT } from '../../core/exit-codes.js';
import { InputError } from '../../core/input-error.js';
import { TOOL_NAME } from '../../util/version.js';
import { CLI_SPELLING, collect, integer } from '../options.js';
import { CliOutput } from '../output.js';
import { parseHeaders } from '../target-args.js';

const SERVE_HELP = `
The client talks to ${TOOL_NAME} serve as to any MCP server; ${TOOL_NAME} serve talks to yours. In
between it adds progressive disclosure (tools/list minimal, the resource
resource:///tool_descriptions, calls refused until the tool's description was fetched in the
session) and passes everything else through: other resources, prompts, notifications, progress,
cancellation, sampling, elicitation, roots, errors. Your server's stderr is passed through, and
its exit ends the proxy with its code.

In a client's configuration (Claude Desktop, VS Code, Cursor), replace the server's command:
  "command": "npx", "args": ["-y", "${TOOL_NAME}", "serve", "--", "node", "server.js"]

Examples:
  $ ${TOOL_NAME} serve -- node dist/server.js
  $ ${TOOL_NAME} serve --descriptions pd -- node dist/server.js      the folder init wrote
  $ ${TOOL_NAME} serve --listen 3000 -- python -m my_server          Streamable HTTP at 127.0.0.1:3000/mcp
  $ ${TOOL_NAME} serve --url https://mcp.example.com/mcp --header 'Authorization: Bearer $TOKEN'`;

interface ServeFlags {
  descriptions?: string;
  listen?: number;
  host: string;
  allowedOrigin: string[];
  url?: string;
  header: string[];
  cwd?: string;
}

export function serveCommand(): Command {
  return new Command('serve')
    .description('Put progressive disclosure in front of any MCP server, with no change to it: a proxy over stdio (or Streamable HTTP with --listen).')
    .argument('[command...]', 'the command that starts the upstream server (stdio)')
    .option('--descriptions <dir>', 'the folder init wrote (tool_descriptions/, tools-list.minimal.json); default: derived from the upstream\'s own tools/list')
    .option('--listen <port>', 'serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (0: any free port)', integer(0, 65_535))
    .option('--host <address>', 'the address --listen binds', '127.0.0.1')
    .option('--allowed-origin <origin>', 'an Origin --listen accepts besides the loopback ones (DNS rebinding protection), e.g. https://app.example.com; repeatable', collect, [])
    .option('--url <url>', 'an upstream server over Streamable HTTP instead of a command')
    .option('--header <Name: value>', 'HTTP header for --url, repeatable; $VAR is read from the environment', collect, [])
    .option('--cwd <dir>', 'working directory for the upstream command')
    .passThroughOptions()
    .addHelpText('after', SERVE_HELP)
    .action(async (words: string[], flags: ServeFlags) => {
      process.exitCode = await runServe(words, flags);
    });
}

async function runServe(words: string[], flags: ServeFlags): Promise<number> {
  const out = new CliOutput();
  const { serve } = await import('../../library/serve.js');
  const serving = await serve({
    ...(words.length ? { command: words } : {}),
    ...(flags.url !== undefined ? { url: flags.url, headers: parseHeaders(flags.header) } : {}),
    ...(flags.cwd !== undefined ? { cwd: flags.cwd } : {}),
    ...(flags.descriptions !== undefined ? { descriptions: flags.descriptions } : {}),
    ...(flags.listen !== undefined ? { listen: flags.listen, host: flags.host, allowedOrigins: flags.allowedOrigin } : {}),
  }, CLI_SPELLING);
  if (serving.url) out.say(`${TOOL_NAME} serve: listening on ${serving.url}\n`);
  // Ending the upstream ends the proxy, with the upstream's exit code (below).
  const stop = () => void serving.close().catch(() => {});
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // stdio: the client closing our stdin ends the session: the upstream's stdin is closed in turn.
  if (!serving.url) process.stdin.once('end', stop);
  const failed = serving.ready.then(() => new Promise<never>(() => {}), (err: Error) => {
    if (err instanceof InputError) out.say(`${TOOL_NAME} serve: ${err.message}\n`);
    else out.say(`${TOOL_NAME} serve: the upstream server's tools could not be listed: ${err.message}\n`);
    return err instanceof InputError ? EXIT.usage : EXIT.unreachable;
  });
  const code = await Promise.race([serving.exited, failed]);
  await serving.close().catch(() => {});
  return code;
}
