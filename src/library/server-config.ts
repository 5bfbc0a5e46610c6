// Servers where users already wrote them down: claude_desktop_config.json, .cursor/mcp.json and
// .mcp.json (`mcpServers`), .vscode/mcp.json (`servers`, `inputs`), and the MCP registry's
// server.json (`packages`, `remotes`). Each becomes the library's ServerOptions.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, resolve as resolvePath, sep } from 'node:path';
import { describeValue, parseJsonc } from '../core/jsonc.js';
import { closest } from '../util/distance.js';
import { InputError } from '../core/input-error.js';
import { isPlainObject } from '../protocol/payload.js';
import type { KnownSecret } from '../safety/redact.js';
import type { ServerOptions } from './server-options.js';

export type ConfigShape = 'mcpServers' | 'vscode' | 'server.json';

export const SHAPE_NAMES: Record<ConfigShape, string> = {
  mcpServers: 'an mcpServers file (Claude Desktop, Cursor, .mcp.json)',
  vscode: "VS Code's mcp.json (servers, inputs)",
  'server.json': "the MCP registry's server.json",
};

export interface ConfiguredServer {
  name: string;
  options: ServerOptions;
  /** Values the file marks secret (server.json isSecret), masked beside the usual ones. */
  secrets: KnownSecret[];
  /** Why this entry cannot be run as written (an unresolved ${input:…}, no command): its row in a fleet, never the end of it. */
  problem?: string;
}

/** One entry, or what is wrong with it: a bad entry is that server's problem only. */
function entry(name: string, build: () => ConfiguredServer): ConfiguredServer {
  try {
    return build();
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return { name, options: {}, secrets: [], problem: err.message };
  }
}

export interface ServerConfig {
  file: string;
  shape: ConfigShape;
  servers: ConfiguredServer[];
}

/** `$VAR`, `${VAR}`, `${env:VAR}` and `${input:ID}` in a value. */
const REFERENCE = /\$\{(?:(env|input):)?([\w.-]+)\}|\$(\w+)/g;

/**
 * Reads a config file and the servers in it (all, or those named). `given` holds values for
 * `${input:…}` (the CLI's --env); the environment fills the rest. Throws InputError naming the file
 * and the entry.
 */
export function readServerConfig(file: string, names: readonly string[] = [], given: Record<string, string> = {}): ServerConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? `--server-config '${file}' does not exist: give the config file that lists your servers (.mcp.json, .vscode/mcp.json, a client's config, or a server.json)`
      : code === 'EISDIR' ? `--server-config '${file}' is a folder: give the config file in it (e.g. ${file.replace(/\/$/, '')}/mcp.json)`
      : code === 'EACCES' ? `--server-config '${file}' cannot be read: permission denied`
      : `--server-config '${file}' cannot be read (${code ?? (err as Error).message})`);
  }
  const value = parseJsonc(text, `--server-config '${file}'`);
  if (!isPlainObject(value)) throw new InputError(`--server-config '${file}' holds ${describeValue(value)}, not an object of servers`);
  const shape: ConfigShape | undefined = isPlainObject(value.mcpServers) ? 'mcpServers'
    : isPlainObject(value.servers) ? 'vscode'
    : Array.isArray(value.packages) || Array.isArray(value.remotes) ? 'server.json'
    : undefined;
  if (!shape) throw new InputError(`--server-config '${file}': not a shape this checker knows (mcpServers, VS Code's servers, or a registry server.json with packages/remotes)`);
  const resolve = resolver(file, given);
  const all = shape === 'server.json' ? fromServerJson(file, value, resolve) : fromServers(file, (shape === 'mcpServers' ? value.mcpServers : value.servers) as Record<string, unknown>, resolve);
  if (!all.length) throw new InputError(`--server-config '${file}' names no server`);
  const unknown = names.filter((n) => !all.some((s) => s.name === n));
  if (unknown.length) throw new InputError(`--server-config '${file}' has no server ${unknown.map((n) => `'${n}'`).join(', ')} (it has ${all.map((s) => `'${s.name}'`).join(', ')})`);
  return { file, shape, servers: names.length ? all.filter((s) => names.includes(s.name)) : all };
}

type Resolve = (value: string, entry: string, secrets?: KnownSecret[]) => string;

/**
 * VS Code's predefined variables (Cursor reads them too): the workspace is the folder that holds
 * `.vscode/` (or `.cursor/`), else the config file's own folder.
 */
function predefined(file: string): Record<string, string> {
  const folder = dirname(resolvePath(file));
  const workspace = /^\.(vscode|cursor)$/.test(basename(folder)) ? dirname(folder) : folder;
  return { workspaceFolder: workspace, workspaceFolderBasename: basename(workspace), userHome: homedir(), pathSeparator: sep };
}

function resolver(file: string, given: Record<string, string>): Resolve {
  const known = predefined(file);
  return (value, entry, secrets) => value.replace(REFERENCE, (_m, kind: string | undefined, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    if (kind === undefined && braced !== undefined && known[braced] !== undefined) return known[braced]!;
    const found = kind === 'input' ? given[name] ?? process.env[name] : process.env[name] ?? given[name];
    if (found === undefined) {
      throw new InputError(kind === 'input'
        ? `--server-config '${file}', server '${entry}': \${input:${name}} has no value; give it with --env ${name}=VALUE`
        : `--server-config '${file}', server '${entry}': the environment variable ${name} is not set`);
    }
    secrets?.push({ value: found, source: `$${name}` });
    return found;
  });
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function record(value: unknown): Record<string, string> {
  return isPlainObject(value) ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
}

/** `mcpServers` and VS Code's `servers`: a command with args and env, or a url with headers. */
function fromServers(file: string, servers: Record<string, unknown>, resolve: Resolve): ConfiguredServer[] {
  return Object.entries(servers).map(([name, raw]) => entry(name, () => {
    if (!isPlainObject(raw)) throw new InputError(`--server-config '${file}', server '${name}': not an object`);
    const secrets: KnownSecret[] = [];
    const env = Object.fromEntries(Object.entries(record(raw.env)).map(([k, v]) => [k, resolve(v, name, secrets)]));
    const headers = Object.fromEntries(Object.entries(record(raw.headers)).map(([k, v]) => [k, resolve(v, name, secrets)]));
    for (const [k, v] of Object.entries(env)) secrets.push({ value: v, source: `$${k}` });
    if (typeof raw.url === 'string') {
      const transport = raw.type === 'sse' ? 'sse' : raw.type === 'http' || raw.type === 'streamable-http' ? 'streamable-http' : 'auto';
      return { name, secrets: secrets.filter(worth), options: { url: resolve(raw.url, name), headers, transport } };
    }
    if (typeof raw.command !== 'string') {
      const near = Object.keys(raw).map((key) => ({ key, meant: closest(key, ['command', 'url'], 2) })).find((n) => n.meant !== undefined && n.meant !== n.key);
      throw new InputError(`--server-config '${file}', server '${name}': neither a command nor a url${near ? ` (is '${near.key}' meant to be '${near.meant}'?)` : ''}`);
    }
    const command = [resolve(raw.command, name), ...strings(raw.args).map((a) => resolve(a, name))];
    return { name, secrets: secrets.filter(worth), options: { command, env, ...(typeof raw.cwd === 'string' ? { cwd: resolve(raw.cwd, name) } : {}) } };
  }));
}

/** How each registry type is started at its pinned version. */
const RUNNERS: Record<string, (id: string, version: string | undefined) => string[]> = {
  npx: (id, v) => ['npx', '-y', v ? `${id}@${v}` : id],
  uvx: (id, v) => ['uvx', v ? `${id}==${v}` : id],
  docker: (id, v) => ['docker', 'run', '-i', '--rm', v ? `${id}:${v}` : id],
  dnx: (id, v) => ['dnx', v ? `${id}@${v}` : id, '--yes'],
};
const DEFAULT_HINT: Record<string, string> = { npm: 'npx', pypi: 'uvx', oci: 'docker', nuget: 'dnx' };

function fromServerJson(file: string, json: Record<string, unknown>, resolve: Resolve): ConfiguredServer[] {
  const base = typeof json.name === 'string' ? json.name : basename(file);
  const out: ConfiguredServer[] = [];
  const packages = Array.isArray(json.packages) ? json.packages.filter(isPlainObject) : [];
  packages.forEach((pkg, i) => {
    const name = packages.length > 1 ? `${base} (${String(pkg.registryType ?? 'package')} ${i + 1})` : base;
    out.push(entry(name, () => {
      const hint = typeof pkg.runtimeHint === 'string' ? pkg.runtimeHint : DEFAULT_HINT[String(pkg.registryType)];
      const runner = hint ? RUNNERS[hint] : undefined;
      if (!runner || typeof pkg.identifier !== 'string') throw new InputError(`--server-config '${file}', package '${String(pkg.identifier ?? i)}': no way to start registry type '${String(pkg.registryType)}'${hint ? ` with runtimeHint '${hint}'` : ''} (npx, uvx, docker and dnx are known)`);
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
      if (missing.length) throw new InputError(`--server-config '${file}', package '${pkg.identifier}': set the required environment variable${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`);
      const args = (Array.isArray(pkg.packageArguments) ? pkg.packageArguments : []).filter(isPlainObject).flatMap((a) => {
        const value = typeof a.value === 'string' ? resolve(a.value, name, secrets) : typeof a.default === 'string' ? a.default : undefined;
        if (a.type === 'named' && typeof a.name === 'string') return value === undefined ? [a.name] : [a.name, value];
        return value === undefined ? [] : [value];
      });
      const version = typeof pkg.version === 'string' ? pkg.version : typeof json.version === 'string' ? json.version : undefined;
      return { name, secrets: secrets.filter(worth), options: { command: [...runner(pkg.identifier, version), ...args], env } };
    }));
  });
  const remotes = Array.isArray(json.remotes) ? json.remotes.filter(isPlainObject) : [];
  remotes.forEach((remote, i) => {
    if (typeof remote.url !== 'string') return;
    const name = `${base} (remote${remotes.length > 1 ? ` ${i + 1}` : ''})`;
    out.push(entry(name, () => {
      const secrets: KnownSecret[] = [];
      const headers: Record<string, string> = {};
      for (const h of (Array.isArray(remote.headers) ? remote.headers : []).filter(isPlainObject)) {
        if (typeof h.name !== 'string' || typeof h.value !== 'string') continue;
        headers[h.name] = resolve(h.value, name, secrets);
        if (h.isSecret === true) secrets.push({ value: headers[h.name]!, source: `header ${h.name}` });
      }
      return { name, secrets: secrets.filter(worth), options: { url: resolve(remote.url as string, name), headers, transport: remote.type === 'sse' ? 'sse' : 'streamable-http' } };
    }));
  });
  return out;
}

/** Short values (a port, "1") are not worth masking: they would blank out ordinary text. */
function worth(secret: KnownSecret): boolean {
  return secret.value.length >= 6;
}
