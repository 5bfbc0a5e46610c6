// The MCP registry's list format: `{ "servers": [ { "server": {…server.json…}, "_meta": {…} }, … ] }`,
// as GET /v0/servers returns a page of it (a bare server.json in the array is read too). One row per
// entry: the first of its packages and remotes (in the order written) that can run here, or the
// reason for each that cannot — no runtime on PATH (uvx, docker, dnx), a required secret or
// variable not set, a transport the checker does not start, a malformed entry. An entry the registry
// marks deleted is skipped (a row that says so); one marked deprecated is checked, and says it.
import { InputError } from '../core/input-error.js';
import { isPlainObject } from '../protocol/payload.js';
import { runnable } from '../util/files.js';
import type { ConfiguredServer, Resolve } from './configured-server.js';
import { CandidateError, serverJsonCandidates } from './server-json.js';

/** Where the registry writes what it knows of an entry (status, publication dates). */
const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

/** Why one candidate cannot run: `runtime` when only its program is missing here. */
interface Refusal {
  label: string;
  why: string;
  runtime: boolean;
}

export function fromRegistryList(file: string, list: readonly unknown[], resolve: Resolve): ConfiguredServer[] {
  const taken = new Set<string>();
  return list.map((item, i) => {
    const json = isPlainObject(item) && isPlainObject(item.server) ? item.server : item;
    const name = uniqueName(json, i, taken);
    if (!isPlainObject(json)) return malformed(name, `entry ${i + 1} is not an object`);
    if (typeof json.name !== 'string' || !json.name) return malformed(name, `entry ${i + 1} has no name`);
    const status = registryStatus(item);
    // The registry keeps deleted versions in its list, marked: nothing to check, and no failure.
    if (status === 'deleted')
      return { name, options: {}, secrets: [], skipped: 'skipped: deleted from the registry (its _meta status)' };
    const where = `--server-config '${file}', server '${name}'`;
    const candidates = serverJsonCandidates(where, json, resolve, name);
    if (!candidates.length) return malformed(name, `${where}: neither packages nor remotes (nothing to run)`);
    const refused: Refusal[] = [];
    for (const candidate of candidates) {
      try {
        const server = candidate.build();
        const program = server.options.command?.[0];
        if (program !== undefined && !runnable(program)) {
          refused.push({ label: candidate.label, why: `${program} is not on PATH`, runtime: true });
          continue;
        }
        const not = refused.map((r) => `${r.label} (${r.why})`);
        const notes = [
          ...(status === 'deprecated' ? ['deprecated in the registry'] : []),
          ...(candidates.length > 1
            ? [`chose the ${candidate.label}${not.length ? `; not: ${not.join('; ')}` : ''}`]
            : []),
        ];
        return { ...server, name, ...(notes.length ? { note: notes.join('; ') } : {}) };
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        // (a $VAR of the entry that is not set is the resolver's InputError: its message is the reason)
        refused.push({
          label: candidate.label,
          why:
            err instanceof CandidateError
              ? err.reason
              : err.message.replace(/^--server-config '[^']*', server '[^']*': /, ''),
          runtime: false,
        });
      }
    }
    const problem = `nothing it offers can run here: ${refused.map((r) => `${r.label}: ${r.why}`).join('; ')}`;
    return {
      name,
      options: {},
      secrets: [],
      problem,
      ...(refused.every((r) => r.runtime) ? { unreachable: true } : {}),
    };
  });
}

/** The registry's own status of an entry (`active`, `deprecated`, `deleted`), from its official `_meta`. */
function registryStatus(item: unknown): string | undefined {
  const meta = isPlainObject(item) && isPlainObject(item._meta) ? item._meta[OFFICIAL_META] : undefined;
  return isPlainObject(meta) && typeof meta.status === 'string' ? meta.status : undefined;
}

function malformed(name: string, why: string): ConfiguredServer {
  return {
    name,
    options: {},
    secrets: [],
    problem: `malformed entry: ${why.replace(/^--server-config '[^']*', server '[^']*': /, '')}`,
  };
}

/** A server's name, once: a second version of a server is `name@version`, anything else repeated gets `#n`. */
function uniqueName(json: unknown, i: number, taken: Set<string>): string {
  const base = isPlainObject(json) && typeof json.name === 'string' && json.name ? json.name : `entry ${i + 1}`;
  const version = isPlainObject(json) && typeof json.version === 'string' ? json.version : undefined;
  let name = !taken.has(base)
    ? base
    : version && !taken.has(`${base}@${version}`)
      ? `${base}@${version}`
      : `${base}#${i + 1}`;
  if (taken.has(name)) name = `${base}#${i + 1}`;
  taken.add(name);
  return name;
}
