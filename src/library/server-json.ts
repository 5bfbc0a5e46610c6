// The MCP registry's server.json: what it offers to run (each package and each remote) as
// candidates, each built into the library's ServerOptions or refused with a one-line reason. A
// server.json file is a fleet of all its candidates; a registry list picks one per server.
import { InputError } from '../core/input-error.js';
import { isPlainObject } from '../protocol/payload.js';
import type { KnownSecret } from '../safety/redact.js';
import { entry, worth, type ConfiguredServer, type Resolve } from './configured-server.js';
import { asText } from '../util/text.js';

/** How each registry type is started at its pinned version. */
const RUNNERS: Record<string, (id: string, version: string | undefined) => string[]> = {
  npx: (id, v) => ['npx', '-y', v ? `${id}@${v}` : id],
  uvx: (id, v) => ['uvx', v ? `${id}==${v}` : id],
  docker: (id, v) => ['docker', 'run', '-i', '--rm', v ? `${id}:${v}` : id],
  dnx: (id, v) => ['dnx', v ? `${id}@${v}` : id, '--yes'],
};
const DEFAULT_HINT: Record<string, string> = { npm: 'npx', pypi: 'uvx', oci: 'docker', nuget: 'dnx' };

/** Why a candidate cannot run: the message names the file and entry; `reason` is the why alone. */
export class CandidateError extends InputError {
  constructor(
    where: string,
    readonly reason: string,
  ) {
    super(`${where}: ${reason}`);
  }
}

/** One thing a server.json offers to run; `build` throws InputError with the reason it cannot. */
export interface Candidate {
  /** Its row's name in a server.json fleet. */
  name: string;
  /** How a reason names it: `npm package '@acme/x'`, `remote https://…`. */
  label: string;
  build: () => ConfiguredServer;
  /** A remote without a url: left out of a server.json fleet, a reason in a registry list. */
  noUrl?: true;
}

/**
 * `{name}` in a server.json value (the registry's variables): from the environment variable of that
 * name (or its upper-case form), else the variable's default; a secret one joins `secrets`.
 */
function fillVariables(value: string, variables: unknown, where: string, what: string, secrets: KnownSecret[]): string {
  return value.replace(/\{([A-Za-z_][\w-]*)\}/g, (_m, name: string) => {
    const spec = isPlainObject(variables) && isPlainObject(variables[name]) ? variables[name] : {};
    const upper = name.toUpperCase().replace(/-/g, '_');
    const found =
      process.env[name] ?? process.env[upper] ?? (typeof spec.default === 'string' ? spec.default : undefined);
    if (found === undefined)
      throw new CandidateError(
        where,
        `${what} needs {${name}}${spec.isSecret === true ? ' (a secret)' : ''}: set the environment variable ${upper}`,
      );
    if (spec.isSecret === true) secrets.push({ value: found, source: `$${upper}` });
    return found;
  });
}

/** The package and remote candidates of one server.json (`where` starts each reason: the file, the entry). */
export function serverJsonCandidates(
  where: string,
  json: Record<string, unknown>,
  resolve: Resolve,
  base: string,
): Candidate[] {
  const packages = Array.isArray(json.packages) ? json.packages.filter(isPlainObject) : [];
  const remotes = Array.isArray(json.remotes) ? json.remotes.filter(isPlainObject) : [];
  const out: Candidate[] = packages.map((pkg, i) => {
    const name = packages.length > 1 ? `${base} (${asText(pkg.registryType ?? 'package')} ${i + 1})` : base;
    const label = `${asText(pkg.registryType ?? 'a')} package '${asText(pkg.identifier ?? i + 1)}'`;
    return {
      name,
      label,
      build: () => fromPackage(`${where}, package '${asText(pkg.identifier ?? i)}'`, pkg, json, resolve, name),
    };
  });
  remotes.forEach((remote, i) => {
    const name = `${base} (remote${remotes.length > 1 ? ` ${i + 1}` : ''})`;
    const label = `remote ${typeof remote.url === 'string' ? remote.url : i + 1}`;
    out.push({
      name,
      label,
      build: () => fromRemote(`${where}, ${label}`, remote, resolve, name),
      ...(typeof remote.url === 'string' ? {} : { noUrl: true as const }),
    });
  });
  return out;
}

function fromPackage(
  where: string,
  pkg: Record<string, unknown>,
  json: Record<string, unknown>,
  resolve: Resolve,
  name: string,
): ConfiguredServer {
  const hint = typeof pkg.runtimeHint === 'string' ? pkg.runtimeHint : DEFAULT_HINT[String(pkg.registryType)];
  const runner = hint ? RUNNERS[hint] : undefined;
  if (!runner || typeof pkg.identifier !== 'string')
    throw new CandidateError(
      where,
      `no way to start registry type '${String(pkg.registryType)}'${hint ? ` with runtimeHint '${hint}'` : ''} (npx, uvx, docker and dnx are known)`,
    );
  const transport = isPlainObject(pkg.transport) ? pkg.transport.type : undefined;
  if (transport !== undefined && transport !== 'stdio')
    throw new CandidateError(
      where,
      `its transport is ${asText(transport)}; a package is started and checked over stdio (run it yourself and give its URL with --url)`,
    );
  const secrets: KnownSecret[] = [];
  const env: Record<string, string> = {};
  const missing: string[] = [];
  for (const v of (Array.isArray(pkg.environmentVariables) ? pkg.environmentVariables : []).filter(isPlainObject)) {
    if (typeof v.name !== 'string') continue;
    const value = process.env[v.name] ?? (typeof v.default === 'string' ? v.default : undefined);
    if (value === undefined) {
      if (v.isRequired === true) missing.push(v.name);
      continue;
    }
    env[v.name] = value;
    if (v.isSecret === true) secrets.push({ value, source: `$${v.name}` });
  }
  if (missing.length)
    throw new CandidateError(
      where,
      `set the required environment variable${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`,
    );
  const args = (Array.isArray(pkg.packageArguments) ? pkg.packageArguments : []).filter(isPlainObject).flatMap((a) => {
    const value =
      typeof a.value === 'string'
        ? fillVariables(
            resolve(a.value, name, secrets),
            a.variables,
            where,
            `argument ${asText(a.name ?? a.value)}`,
            secrets,
          )
        : typeof a.default === 'string'
          ? a.default
          : undefined;
    if (a.type === 'named' && typeof a.name === 'string') return value === undefined ? [a.name] : [a.name, value];
    return value === undefined ? [] : [value];
  });
  const version =
    typeof pkg.version === 'string' ? pkg.version : typeof json.version === 'string' ? json.version : undefined;
  return {
    name,
    secrets: secrets.filter(worth),
    options: { command: [...runner(pkg.identifier, version), ...args], env },
  };
}

function fromRemote(where: string, remote: Record<string, unknown>, resolve: Resolve, name: string): ConfiguredServer {
  if (typeof remote.url !== 'string') throw new CandidateError(where, 'it has no url');
  if (remote.type !== undefined && remote.type !== 'streamable-http' && remote.type !== 'sse')
    throw new CandidateError(where, `unknown transport type '${asText(remote.type)}' (streamable-http or sse)`);
  const secrets: KnownSecret[] = [];
  const headers: Record<string, string> = {};
  for (const h of (Array.isArray(remote.headers) ? remote.headers : []).filter(isPlainObject)) {
    if (typeof h.name !== 'string') continue;
    // A header the entry leaves to the user (no value): the environment variable named after it (X-API-Key →
    // X_API_KEY).
    const own = h.name.toUpperCase().replace(/[^A-Z0-9]/g, '_');
    const given =
      typeof h.value === 'string'
        ? h.value
        : (process.env[own] ?? (typeof h.default === 'string' ? h.default : undefined));
    if (given === undefined) {
      if (h.isRequired === true)
        throw new CandidateError(
          where,
          `it needs the header ${h.name}${h.isSecret === true ? ' (a secret)' : ''}: set the environment variable ${own}`,
        );
      continue;
    }
    headers[h.name] = fillVariables(resolve(given, name, secrets), h.variables, where, `header ${h.name}`, secrets);
    if (h.isSecret === true) secrets.push({ value: headers[h.name], source: `header ${h.name}` });
  }
  const url = fillVariables(resolve(remote.url, name), remote.variables, where, 'its url', secrets);
  return {
    name,
    secrets: secrets.filter(worth),
    options: { url, headers, transport: remote.type === 'sse' ? 'sse' : 'streamable-http' },
  };
}

/** A server.json file: every package and remote a server of its own (a remote without url left out, as before). */
export function fromServerJson(
  where: string,
  json: Record<string, unknown>,
  resolve: Resolve,
  base: string,
): ConfiguredServer[] {
  return serverJsonCandidates(where, json, resolve, base)
    .filter((c) => !c.noUrl)
    .map((c) => entry(c.name, c.build));
}
