import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createReferenceServer, SERVER_NAME, SERVER_VERSION, type Behaviour, type ServerOptions } from './server.js';
import { DEFAULT_FETCH_LIMIT, MAX_NAMES_PER_FETCH } from '../src/protocol/server/limits.js';

const USAGE = `Usage: ${SERVER_NAME} [--http PORT] [--host HOST] [--allowed-origin ORIGIN] [--help] [--version]

The bundled reference MCP server of mcp-pd-check: a small notes service that implements
Progressive Disclosure for Tool Descriptions v2.1 (plus dashdash metadata and Tool Cards)
and passes every check.

  (no option)      speak MCP over stdio (newline-delimited JSON-RPC on stdin/stdout)
  --http PORT      serve Streamable HTTP at http://127.0.0.1:PORT/mcp (PORT 0: any free port);
                   Tool Cards at /.well-known/mcp-tools/<tool>.json
  --host HOST      address to bind with --http (default 127.0.0.1)
  --allowed-origin ORIGIN
                   an Origin accepted besides the loopback ones, e.g. https://app.example.com
                   (repeatable). Bound to a loopback address, the server refuses with 403 any
                   request whose Host or Origin is not a loopback name (DNS rebinding protection).
  --fetch-limit N  tool description fetches allowed per minute and session (default
                   ${DEFAULT_FETCH_LIMIT}; 0: no limit); more are refused with 'Rate limit exceeded'
                   (JSON-RPC -32000, data.retryAfter). One fetch names at most ${MAX_NAMES_PER_FETCH} tools.

With --http, MCP_PD_REFERENCE_TOKEN=<token> in the environment makes /mcp require
'Authorization: Bearer <token>' (primary authorization; spec §5.3).

Examples:
  mcp-pd-check -- ${SERVER_NAME}
  ${SERVER_NAME} --http 3000 &  mcp-pd-check --url http://127.0.0.1:3000/mcp
`;

/** Runs the server (stdio or --http) with some behaviour replaced; the fixtures use this too. */
export async function runServer(
  argv: string[],
  overrides: Partial<Behaviour> = {},
  serverOptions: Pick<ServerOptions, 'latencyMs' | 'beforeRun'> = {},
): Promise<void> {
  const fail = (message: string) => {
    process.stderr.write(`${SERVER_NAME}: ${message}. Run '${SERVER_NAME} --help'.\n`);
    process.exitCode = 2;
  };
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  if (argv.includes('--version')) {
    process.stdout.write(`${SERVER_VERSION}\n`);
    return;
  }
  let port: number | undefined;
  let host: string | undefined;
  let fetchLimit: number | undefined;
  const allowedOrigins: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--http' || arg === '--host' || arg === '--fetch-limit' || arg === '--allowed-origin') {
      const value = argv[++i];
      if (value === undefined) return fail(`${arg} needs a value`);
      if (arg === '--host') host = value;
      else if (arg === '--allowed-origin') {
        if (!/^https?:\/\/[^/\s]+$/.test(value))
          return fail(`--allowed-origin expects an origin such as https://app.example.com, got '${value}'`);
        allowedOrigins.push(value);
      } else if (arg === '--fetch-limit') {
        if (!/^\d+$/.test(value)) return fail(`--fetch-limit expects a whole number (0: no limit), got '${value}'`);
        fetchLimit = Number(value);
      } else if (!/^\d+$/.test(value) || Number(value) > 65535)
        return fail(`--http expects a port number from 0 to 65535, got '${value}'`);
      else port = Number(value);
    } else {
      return fail(`unknown option '${arg}'`);
    }
  }
  if (port === undefined) {
    if (host) return fail('--host goes with --http');
    await createReferenceServer(overrides, { fetchLimit, ...serverOptions }).connect(new StdioServerTransport());
    return;
  }
  const token = process.env.MCP_PD_REFERENCE_TOKEN || undefined;
  // Loaded only for --http: over stdio every session is a process of its own, and the HTTP stack
  // (the SDK's transports, raw-body, iconv-lite: half the bundle) cost every start its parsing.
  const { startHttpServer } = await import('./http.js');
  const server = await startHttpServer({
    port,
    host,
    overrides,
    token,
    fetchLimit,
    allowedOrigins,
    ...serverOptions,
  }).catch((err: NodeJS.ErrnoException) => {
    fail(err.code === 'EADDRINUSE' ? `port ${port} is already in use` : `cannot listen: ${err.message}`);
    return undefined;
  });
  if (!server) return;
  process.stdout.write(`${SERVER_NAME} listening on ${server.url}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
