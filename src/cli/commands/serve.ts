import { Command } from 'commander';
import { EXIT } from '../../core/exit-codes.js';
import { InputError } from '../../core/input-error.js';
import { TOOL_NAME } from '../../util/version.js';
import { CLI_SPELLING, libraryOptions, withOptions, type Flags } from '../options.js';
import type { ServeOptions } from '../../library/serve.js';
import { CliOutput } from '../output.js';
import { flagsAfterCommandHint } from '../target-args.js';

const SERVE_HELP = `
The client talks to ${TOOL_NAME} serve as to any MCP server; ${TOOL_NAME} serve talks to yours. In
between it adds progressive disclosure (tools/list minimal, the resource
resource:///tool_descriptions, calls refused until the tool's description was fetched in the
session) and passes everything else through: other resources, prompts, notifications, progress,
cancellation, sampling, elicitation, roots, errors. Your server's stderr is passed through, and
its exit ends the proxy with its code.

Clients of either protocol era are served: 2025-11-25 (initialize, a session) and 2026-07-28
(server/discover, no session; over HTTP its calls are not gated, since no grant could outlive the
request). Your server is spoken to in the era it speaks, 2025-11-25 first (--protocol to choose).

In a client's configuration (Claude Desktop, VS Code, Cursor), replace the server's command:
  "command": "npx", "args": ["-y", "${TOOL_NAME}", "serve", "--", "node", "server.js"]

Examples:
  $ ${TOOL_NAME} serve -- node dist/server.js
  $ ${TOOL_NAME} serve --descriptions pd -- node dist/server.js      the folder init wrote
  $ ${TOOL_NAME} serve --listen 3000 -- python -m my_server          Streamable HTTP at 127.0.0.1:3000/mcp
  $ ${TOOL_NAME} serve --url https://mcp.example.com/mcp --header 'Authorization: Bearer $TOKEN'

Exit codes: the upstream server's own when it exits (serve ends with it), 0 when the client
            ends the session, 2 usage error (a folder of another server, a bad flag), 3 the
            upstream's tools could not be listed, 70 an internal error of the checker (a bug:
            report it with the stack it prints).`;

export function serveCommand(): Command {
  return withOptions(
    new Command('serve')
      .description(
        'Put progressive disclosure in front of any MCP server, with no change to it: a proxy over stdio (or Streamable HTTP with --listen).',
      )
      .argument('[command...]', 'the command that starts the upstream server (stdio)'),
    'serve',
  )
    .passThroughOptions()
    .addHelpText('after', SERVE_HELP)
    .action(async (words: string[], flags: Flags) => {
      process.exitCode = await runServe(words, flags);
    });
}

async function runServe(words: string[], flags: Flags): Promise<number> {
  const out = new CliOutput();
  const misplaced = flagsAfterCommandHint(words, process.argv.slice(2), 'serve');
  if (misplaced) out.say(`${TOOL_NAME} serve: ${misplaced}\n`);
  const { serve } = await import('../../library/serve.js');
  // What goes wrong on the way (a message dropped, a client's transport failing) is said, one line each; the proxy goes
  // on.
  const onError = (err: Error) => out.say(`${TOOL_NAME} serve: ${err.message}\n`);
  // serve's own words when no upstream is given: the example names serve.
  const spelling = {
    ...CLI_SPELLING,
    noServer:
      'give the command that starts it (mcp-pd-check serve --descriptions pd -- node server.js) or --url http://host/mcp',
  };
  const serving = await serve({ ...(libraryOptions(flags, 'serve', words) as ServeOptions), onError }, spelling);
  for (const warning of serving.warnings) out.say(`${TOOL_NAME} serve: warning: ${warning}\n`);
  if (serving.url)
    out.say(
      `${TOOL_NAME} serve: listening on ${serving.url}\n${TOOL_NAME} serve: accepting ${serving.accepts ?? ''}\n`,
    );
  // Ending the upstream ends the proxy, with the upstream's exit code (below).
  const stop = () => void serving.close().catch(() => {});
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // stdio: the client closing our stdin ends the session: the upstream's stdin is closed in turn.
  if (!serving.url) process.stdin.once('end', stop);
  const failed = serving.ready.then(
    () => new Promise<never>(() => {}),
    (err: Error) => {
      if (err instanceof InputError) out.say(`${TOOL_NAME} serve: ${err.message}\n`);
      else out.say(`${TOOL_NAME} serve: the upstream server's tools could not be listed: ${err.message}\n`);
      return err instanceof InputError ? EXIT.usage : EXIT.unreachable;
    },
  );
  const code = await Promise.race([serving.exited, failed]);
  await serving.close().catch(() => {});
  return code;
}
