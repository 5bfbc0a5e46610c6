// Servers where users already wrote them down: claude_desktop_config.json, .cursor/mcp.json and
// .mcp.json (`mcpServers`), .vscode/mcp.json (`servers`, `inputs`), the MCP registry's
// server.json (`packages`, `remotes`: src/library/server-json.ts) and its list of servers (`servers[]`,
// as its API returns them: src/library/registry-list.ts). Each becomes the library's ServerOptions.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, resolve as resolvePath, sep } from 'node:path';
import { describeValue, parseJsonc } from '../core/jsonc.js';
import { closest } from '../util/distance.js';
import { InputError } from '../core/input-error.js';
import { listing } from '../util/text.js';
import { isPlainObject } from '../protocol/payload.js';
import type { KnownSecret } from '../safety/redact.js';
import { entry, record, strings, worth, type ConfiguredServer, type Resolve } from './configured-server.js';
import { fromRegistryList } from './registry-list.js';
import { fromServerJson } from './server-json.js';

export type { ConfiguredServer } from './configured-server.js';
export type ConfigShape = 'mcpServers' | 'vscode' | 'server.json' | 'registry';

export const SHAPE_NAMES: Record<ConfigShape, string> = {
  mcpServers: 'an mcpServers file (Claude Desktop, Cursor, .mcp.json)',
  vscode: "VS Code's mcp.json (servers, inputs)",
  'server.json': "the MCP registry's server.json",
  registry: "the MCP registry's list of servers",
};

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
export function readServerConfig(
  file: string,
  names: readonly string[] = [],
  given: Record<string, string> = {},
): ServerConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'ENOENT'
        ? `--server-config '${file}' does not exist: give the config file that lists your servers (.mcp.json, .vscode/mcp.json, a client's config, or a server.json)`
        : code === 'EISDIR'
          ? `--server-config '${file}' is a folder: give the config file in it (e.g. ${file.replace(/\/$/, '')}/mcp.json)`
          : code === 'EACCES'
            ? `--server-config '${file}' cannot be read: permission denied`
            : `--server-config '${file}' cannot be read (${code ?? (err as Error).message})`,
    );
  }
  const value = parseJsonc(text, `--server-config '${file}'`);
  if (!isPlainObject(value))
    throw new InputError(`--server-config '${file}' holds ${describeValue(value)}, not an object of servers`);
  const shape: ConfigShape | undefined = isPlainObject(value.mcpServers)
    ? 'mcpServers'
    : isPlainObject(value.servers)
      ? 'vscode'
      : Array.isArray(value.servers)
        ? 'registry'
        : Array.isArray(value.packages) || Array.isArray(value.remotes)
          ? 'server.json'
          : undefined;
  // Nearly a shape: its key is there with the wrong kind of value — said as such, not as an unknown shape.
  const near = shape
    ? undefined
    : (['mcpServers', 'servers', 'packages', 'remotes'] as const).find((key) => value[key] !== undefined);
  if (near)
    throw new InputError(
      `--server-config '${file}': "${near}" holds ${describeValue(value[near])}; it must be ${near === 'mcpServers' ? 'an object of servers by name' : near === 'servers' ? "an object of servers by name (VS Code) or an array (the registry's list)" : `an array (server.json's ${near}[])`}`,
    );
  if (!shape)
    throw new InputError(
      `--server-config '${file}': not a shape this checker knows (mcpServers, VS Code's servers, a registry server.json with packages/remotes, or the registry's list: servers[])`,
    );
  const resolve = resolver(file, given);
  const all =
    shape === 'server.json'
      ? fromServerJson(
          `--server-config '${file}'`,
          value,
          resolve,
          typeof value.name === 'string' ? value.name : basename(file),
        )
      : shape === 'registry'
        ? fromRegistryList(file, value.servers as unknown[], resolve)
        : fromServers(
            file,
            (shape === 'mcpServers' ? value.mcpServers : value.servers) as Record<string, unknown>,
            resolve,
          );
  if (!all.length) throw new InputError(`--server-config '${file}' names no server`);
  const unknown = names.filter((n) => !all.some((s) => s.name === n));
  if (unknown.length) {
    // Of a long list, the names like the one asked for come first; at most eight are said.
    const like = (name: string) =>
      unknown.some((u) => name.toLowerCase().includes(u.toLowerCase()) || u.toLowerCase().includes(name.toLowerCase()));
    const names = all.map((s) => s.name);
    throw new InputError(
      `--server-config '${file}' has no server ${unknown.map((n) => `'${n}'`).join(', ')} (it has ${all.length === 1 ? '' : `${all.length}: `}${listing([...names.filter(like), ...names.filter((n) => !like(n))])})`,
    );
  }
  return { file, shape, servers: names.length ? all.filter((s) => names.includes(s.name)) : all };
}

/**
 * VS Code's predefined variables (Cursor reads them too): the workspace is the folder that holds
 * `.vscode/` (or `.cursor/`), else the config file's own folder.
 */
function predefined(file: string): Record<string, string> {
  const folder = dirname(resolvePath(file));
  const workspace = /^\.(vscode|cursor)$/.test(basename(folder)) ? dirname(folder) : folder;
  return {
    workspaceFolder: workspace,
    workspaceFolderBasename: basename(workspace),
    userHome: homedir(),
    pathSeparator: sep,
  };
}

function resolver(file: string, given: Record<string, string>): Resolve {
  const known = predefined(file);
  return (value, entry, secrets) =>
    value.replace(REFERENCE, (_m, kind: string | undefined, braced: string | undefined, bare: string | undefined) => {
      const name = (braced ?? bare)!;
      if (kind === undefined && braced !== undefined && known[braced] !== undefined) return known[braced];
      const found = kind === 'input' ? (given[name] ?? process.env[name]) : (process.env[name] ?? given[name]);
      if (found === undefined) {
        throw new InputError(
          kind === 'input'
            ? `--server-config '${file}', server '${entry}': \${input:${name}} has no value; give it with --env ${name}=VALUE`
            : `--server-config '${file}', server '${entry}': the environment variable ${name} is not set`,
        );
      }
      secrets?.push({ value: found, source: `$${name}` });
      return found;
    });
}

/** `mcpServers` and VS Code's `servers`: a command with args and env, or a url with headers. */
function fromServers(file: string, servers: Record<string, unknown>, resolve: Resolve): ConfiguredServer[] {
  return Object.entries(servers).map(([name, raw]) =>
    entry(name, () => {
      if (!isPlainObject(raw)) throw new InputError(`--server-config '${file}', server '${name}': not an object`);
      const secrets: KnownSecret[] = [];
      const env = Object.fromEntries(Object.entries(record(raw.env)).map(([k, v]) => [k, resolve(v, name, secrets)]));
      const headers = Object.fromEntries(
        Object.entries(record(raw.headers)).map(([k, v]) => [k, resolve(v, name, secrets)]),
      );
      for (const [k, v] of Object.entries(env)) secrets.push({ value: v, source: `$${k}` });
      if (typeof raw.url === 'string') {
        const transport =
          raw.type === 'sse'
            ? 'sse'
            : raw.type === 'http' || raw.type === 'streamable-http'
              ? 'streamable-http'
              : 'auto';
        return { name, secrets: secrets.filter(worth), options: { url: resolve(raw.url, name), headers, transport } };
      }
      if (typeof raw.command !== 'string') {
        const near = Object.keys(raw)
          .map((key) => ({ key, meant: closest(key, ['command', 'url'], 2) }))
          .find((n) => n.meant !== undefined && n.meant !== n.key);
        throw new InputError(
          `--server-config '${file}', server '${name}': neither a command nor a url${near ? ` (is '${near.key}' meant to be '${near.meant}'?)` : ''}`,
        );
      }
      const command = [resolve(raw.command, name), ...strings(raw.args).map((a) => resolve(a, name))];
      return {
        name,
        secrets: secrets.filter(worth),
        options: { command, env, ...(typeof raw.cwd === 'string' ? { cwd: resolve(raw.cwd, name) } : {}) },
      };
    }),
  );
}
