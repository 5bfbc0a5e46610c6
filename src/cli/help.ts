import { TOOL_NAME } from '../util/version.js';

export const CHECK_HELP = `
Examples:
  $ ${TOOL_NAME} -- node dist/server.js              check a Node server over stdio
  $ ${TOOL_NAME} --url http://127.0.0.1:3000/mcp     check a Streamable HTTP server
  $ ${TOOL_NAME} --url https://mcp.example.com/mcp --header 'Authorization: Bearer $TOKEN'
  $ ${TOOL_NAME} -- python -m my_mcp_server          a Python server
  $ ${TOOL_NAME} "npx -y @acme/mcp-server --debug"   one quoted string is split like a shell would
  $ ${TOOL_NAME} --env API_KEY=test --cwd ./srv -- node server.js
  $ ${TOOL_NAME} --format json --output report.json -- node server.js
  $ ${TOOL_NAME} --explain-plan --only pd-          the sessions a run would open, and why

Everything after the server command (or after --) is passed to the server untouched.
Tools are really called: point the checker at a test instance, not production
(--safe-calls calls only tools marked read-only).

Exit codes: 0 no finding at or above --fail-on, 1 conformance failures (or a score below
            --min-score, or checks cut by --max-duration), 2 usage error, 3 the server could
            not be started or reached,
            70 an internal error of the checker (a bug: report it with the stack it prints).`;

export const INIT_HELP = `
It reads initialize, tools/list and (with dashdash) ai_help; it never calls a tool. A server that
serves progressive disclosure already: its full descriptions are read from its resource. Generated
texts a human must check start with "REVIEW:"; the lint counts them. A file that exists is kept
unless --force; a folder that holds another server's files is refused (nothing is written) unless
--force. Paths in the written mcp-pd-check.config.json are relative to it.

Examples:
  $ ${TOOL_NAME} init --out pd -- node dist/server.js
  $ ${TOOL_NAME} init --out pd-remote --url http://127.0.0.1:3000/mcp
  $ ${TOOL_NAME} init --out pd-offline --from tools-list.json

Exit codes: 0 written (or kept), 2 usage error, 3 the server could not be started or reached,
            70 an internal error of the checker (a bug: report it with the stack it prints).`;

export const LINT_HELP = `
Recognised files: tool descriptions (in a tool_descriptions/ folder, or with name and
inputSchema), Tool Cards (tool_card_version), dashdash metadata (specVersion and identity),
saved initialize results (protocolVersion and serverInfo: their instructions and dashdash) and
saved tools/list results ({ "tools": [...] }).
A folder is searched for *.json; quote globs so that the shell does not expand them. A folder
with no *.json, or a glob that matches nothing, is a usage error (exit 2): a lint that read
nothing never passes.

Examples (in your server's project; the paths are yours):
  $ ${TOOL_NAME} lint pd                                  the folder '${TOOL_NAME} init --out pd' wrote
  $ ${TOOL_NAME} lint tool_descriptions/ '.well-known/mcp-tools/*.json'   descriptions and Tool Cards
  $ ${TOOL_NAME} lint --format json tools-list.json > lint.json   a saved tools/list result

Exit codes: 0 no finding at or above --fail-on, 1 findings (or a score below --min-score), 2 usage
            error (e.g. a missing path), 70 an internal error of the checker (a bug: report it with the stack it prints).`;

export const MERGE_HELP = `
A sweep too large for one job runs as a CI matrix: each job checks one shard of the fleet
(--server-config FILE --shard k/n --format json), and merge joins their reports. A server is in
exactly one shard; merge refuses a server from two shards and reports of different fleets (their
digests differ), and names a shard that was not given ("2/4 not given"): its servers are rows
"not checked" and the exit code is 2 at least. A folder stands for every *.json in it: a shard's
report and its --out-dir files may be given together (the same server of the same shard counts once).
The --out-dir files of a job killed at its time limit join too: its servers not in them are
"not checked". Single servers' JSON reports (one job per server) are named after their files; a
job whose server could not be started still writes its JSON, which merge counts as not checked.

Examples:
  $ ${TOOL_NAME} merge shard-1.json shard-2.json shard-3.json --format html --output fleet.html
  $ ${TOOL_NAME} merge reports/ --report junit=fleet.xml --report sarif=fleet.sarif

Exit codes: as one run of the whole fleet: 0, 1 conformance failures, 2 a sweep with a hole or a
merge refused (a missing shard, a server twice, another fleet, a bad entry), 3 a server could not
be started or reached, 70 an internal error of the checker (a bug: report it with the stack it prints).`;

export const PROGRAM_DESCRIPTION =
  'Check an MCP server against Progressive Disclosure for Tool Descriptions v2.1:\n' +
  'minimal tools/list, the tool_descriptions resource, and per-session authorization.\n' +
  `Offline: '${TOOL_NAME} lint <paths...>' (see '${TOOL_NAME} lint --help').\n` +
  `Not there yet? '${TOOL_NAME} init' writes a starting point from any server (see '${TOOL_NAME} init --help').\n` +
  `A fleet in shards on a CI matrix: --server-config FILE --shard k/n, then '${TOOL_NAME} merge' (see '${TOOL_NAME} merge --help').\n` +
  `The checks: '${TOOL_NAME} list-checks', '${TOOL_NAME} explain <id>'.`;

export const LOCK_HELP = `
The lock file holds what every client puts in front of its model, per protocol era: each tool's
listed definition and full description by sha256 digest of canonical JSON (RFC 8785), their
tokens (o200k_base), and in clear what a reviewer reads — the listed description, the
annotations, the parameters. No timestamps: the same server gives the same bytes. It reads
initialize, tools/list and the tool_descriptions resource; it never calls a tool.

Commit the lock; in CI, --check fails (exit 1) when a tool was added, removed or changed, naming
each change (a description as a word diff, parameters, annotation flips, tokens before → after).
When the change is meant, run --update in the same pull request. Without --check or --update,
lock writes a new file and never replaces one that differs (it says so, and writes nothing).

Examples:
  $ ${TOOL_NAME} lock -- node dist/server.js                       writes mcp-tools.lock.json
  $ ${TOOL_NAME} lock --check -- node dist/server.js               exit 1 on any change
  $ ${TOOL_NAME} lock --check --format markdown -- node dist/server.js >> "$GITHUB_STEP_SUMMARY"
  $ ${TOOL_NAME} lock --update -- node dist/server.js              rewrite it after a meant change
  $ ${TOOL_NAME} lock --server-config .vscode/mcp.json --server notes --out notes.lock.json

Exit codes: 0 written, or as locked; 1 the surface changed; 2 usage error (no lock file, a file
that is not one, a lock that differs without --update); 3 the server could not be started or reached; 70 an internal error of the checker (a bug: report it with the stack it prints).`;
