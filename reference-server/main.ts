#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createReferenceServer, SERVER_NAME, SERVER_VERSION } from './server.js';

const USAGE = `Usage: ${SERVER_NAME} [--help] [--version]

The bundled reference MCP server of mcp-pd-check: a small notes service that implements
Progressive Disclosure for Tool Descriptions v2.1 and passes every check. It speaks MCP over
stdio (newline-delimited JSON-RPC on stdin/stdout); start it from an MCP client, e.g.

  mcp-pd-check -- ${SERVER_NAME}
`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(USAGE);
} else if (args.includes('--version')) {
  process.stdout.write(`${SERVER_VERSION}\n`);
} else if (args.length) {
  process.stderr.write(`${SERVER_NAME}: unknown option '${args[0]}'. Run '${SERVER_NAME} --help'.\n`);
  process.exitCode = 2;
} else {
  await createReferenceServer().connect(new StdioServerTransport());
}
