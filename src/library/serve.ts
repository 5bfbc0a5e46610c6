// `serve`: progressive disclosure in front of any MCP server, with no change to it.
import { InputError } from '../core/input-error.js';
import { ChildTransport } from '../serve/child.js';
import { readDescriptionFolder, type DescriptionFolder } from '../serve/descriptions.js';
import { Hub } from '../serve/hub.js';
import { StdioClientSide } from '../serve/stdio-client.js';
import { UpstreamEra, type UpstreamProtocol } from '../serve/upstream-era.js';
import { MODERN_ERA, modernHeaders } from '../transport/era.js';
import type { JsonObject } from '../transport/types.js';
import { LIBRARY_SPELLING, type Spelling } from './server-options.js';
import { validateOptions } from './validate-options.js';
import { defaultOf } from './option-table.js';
import { commandFrom, commandWords, isDirectory, parseUrl, withUrlCredentials } from './server-target.js';
import { displayUrl } from '../transport/http-common.js';
import { publishableArguments } from '../safety/arguments.js';
import { clip } from '../util/text.js';

export interface ServeOptions {
  /** The upstream server's command (stdio)… */
  command?: readonly string[] | string;
  cwd?: string;
  /** …or its Streamable HTTP URL, with headers. */
  url?: string;
  headers?: Record<string, string>;
  /** The folder `init` wrote (tool_descriptions/, tools-list.minimal.json); default: derived from the upstream. */
  descriptions?: string;
  /** Serve Streamable HTTP on this port (0: any free one) instead of stdio. */
  listen?: number;
  /** The address to listen on (default 127.0.0.1). */
  host?: string;
  /** Origins allowed besides the loopback ones (`--allowed-origin`), e.g. https://app.example.com. */
  allowedOrigins?: string[];
  /**
   * The protocol era spoken to the upstream: `all` (default) the first it speaks, 2025-11-25 first. Clients of either
   * era are served.
   */
  protocol?: UpstreamProtocol;
  /**
   * How long a request forwarded upstream may wait for its answer, ms (default 300,000): then its client gets an error,
   * the upstream a cancellation.
   */
  requestTimeoutMs?: number;
  /** The largest message accepted from a client or the upstream, MB (default 16). */
  maxMessageMb?: number;
  /**
   * With `listen`: sessions kept at once (default 256); past it the one idle longest goes, or a new client is refused
   * with 503.
   */
  maxSessions?: number;
  /** With `listen`: a session idle this long ends, seconds (default 600). */
  sessionIdleSeconds?: number;
  /** Whether to offer the tool form of the resource, for clients whose model only calls tools (default true). */
  descriptionsTool?: boolean;
  /** Told of errors that do not stop the proxy. */
  onError?: (err: Error) => void;
}

export interface Serving {
  /** The URL clients connect to (with `listen`). */
  url?: string;
  /** With `listen`: what Host and Origin it accepts, in words. */
  accepts?: string;
  /** What the caller should know before clients come (a folder that still holds REVIEW: texts). */
  warnings: string[];
  /** Resolves with the upstream's exit code when it ends (stdio upstream). */
  exited: Promise<number>;
  /**
   * The first listing of the upstream's tools (a client's first tools/list): rejects with InputError when the folder
   * does not match it.
   */
  ready: Promise<void>;
  close(): Promise<void>;
}

export async function serve(options: ServeOptions, spell: Spelling = LIBRARY_SPELLING): Promise<Serving> {
  validateOptions(options, 'serve', spell);
  const s = spell.option;
  const words = commandWords(options.command);
  if (words.length && options.url !== undefined)
    throw new InputError(`give either ${s('command')} or ${s('url')} for the upstream server, not both`);
  if (!words.length && options.url === undefined) throw new InputError(`no upstream server: ${spell.noServer}`);
  if (options.cwd !== undefined && !isDirectory(options.cwd))
    throw new InputError(`${s('cwd')} '${options.cwd}' is not a directory`);
  const folder: DescriptionFolder | undefined =
    options.descriptions !== undefined ? readDescriptionFolder(options.descriptions) : undefined;
  let upstream: UpstreamEra;
  let exited: Promise<number>;
  const maxBytes = (options.maxMessageMb ?? defaultOf<number>('maxMessageMb')) * 1024 * 1024;
  let hub: Hub | undefined;
  // The upstream ended: every request in flight gets an error naming how, then the proxy ends with its code.
  let upstreamName = '';
  const ended = (code: number, how: string) => {
    hub?.upstreamGone(how);
    // Serve's own stderr names the upstream by its command; clients over the network are told less (below).
    if (options.listen !== undefined) options.onError?.(new Error(`the upstream server (${upstreamName}) ${how}`));
    return code;
  };
  let child: ChildTransport | undefined;
  if (options.url !== undefined) {
    const { url, headers } = withUrlCredentials(parseUrl(options.url, spell), options.headers ?? {});
    // Loaded only here: the SDK's HTTP transports bring its schemas (~25 MB).
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const http = new StreamableHTTPClientTransport(url, {
      requestInit: { headers },
      fetch: (to, init) => fetch(to, withModernHeaders(init, upstream)),
    });
    upstream = new UpstreamEra(http, options.protocol);
    exited = new Promise((resolve) => {
      upstream.onclose = () => resolve(ended(0, 'closed the connection'));
    });
  } else {
    const { command, args } = commandFrom(words, options.cwd, {}, spell);
    child = new ChildTransport(command, args, { cwd: options.cwd, maxBytes });
    const upstreamChild = child;
    exited = new Promise((resolve) => {
      upstreamChild.onexit = (code, how) => resolve(ended(code, how));
    });
    child.onDropped = (why, bytes) =>
      options.onError?.(
        new Error(
          why === 'too-large'
            ? `the upstream server sent a message of ${bytes} bytes, over the limit (--max-message): dropped`
            : 'the upstream server wrote a line that is not JSON: dropped',
        ),
      );
    upstream = new UpstreamEra(child, options.protocol);
  }
  // Errors name the upstream: its command as it could be committed (secrets as ${VAR}), or its URL without credentials.
  upstreamName =
    options.url !== undefined
      ? displayUrl(parseUrl(options.url, spell))
      : clip(publishableArguments(words).args.join(' '), 120);
  hub = new Hub(upstream, folder, {
    timeoutMs: options.requestTimeoutMs ?? defaultOf<number>('requestTimeoutMs'),
    toolForm: options.descriptionsTool ?? true,
    // A client over the network (--listen) is not told the upstream's command line (local paths, arguments): only
    // that the upstream server failed. A client over stdio started serve with that command itself.
    ...(options.listen === undefined ? { upstreamName } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  await upstream.start();
  let served: { url?: string; accepts?: string; close(): Promise<void> };
  if (options.listen !== undefined) {
    const { listen } = await import('../serve/listen.js');
    served = await listen(hub, {
      port: options.listen,
      host: options.host ?? defaultOf<string>('host'),
      allowedOrigins: options.allowedOrigins ?? [],
      maxBytes,
      maxSessions: options.maxSessions ?? defaultOf<number>('maxSessions'),
      idleMs: 1000 * (options.sessionIdleSeconds ?? defaultOf<number>('sessionIdleSeconds')),
    }).catch((err: NodeJS.ErrnoException) => {
      void upstream.close();
      throw err.code === 'EADDRINUSE'
        ? new InputError(
            `${s('listen')} ${options.listen}: the port is in use; choose another (or 0 for any free port)`,
          )
        : err;
    });
  } else {
    const client = new StdioClientSide(maxBytes);
    hub.attach(client);
    // Back-pressure both ways: while the client does not read, neither the upstream nor the client
    // is read (answers would pile up); while the upstream does not read, the client is not read.
    const holds = new Set<string>();
    const hold = (why: string) => {
      holds.add(why);
      client.pauseReading();
    };
    const release = (why: string) => {
      holds.delete(why);
      if (!holds.size) client.resumeReading();
    };
    client.onCongested = () => {
      child?.pauseReading();
      hold('client');
    };
    client.onDrained = () => {
      child?.resumeReading();
      release('client');
    };
    if (child) {
      child.onCongested = () => hold('upstream');
      child.onDrained = () => release('upstream');
    }
    await client.start();
    served = { close: () => client.close() };
  }
  // A folder that names a tool the upstream does not list is found on the first listing (after the client's
  // initialize).
  const ready = hub.firstListing;
  return {
    ...(served.url !== undefined ? { url: served.url } : {}),
    ...(served.accepts !== undefined ? { accepts: served.accepts } : {}),
    warnings: unreviewedWarning(folder, options.descriptions),
    exited,
    ready,
    async close() {
      await served.close();
      await upstream.close();
    },
  };
}

/** A POST to a 2026-07-28 upstream with the headers that era wants (the SDK's transport knows only 2025's). */
function withModernHeaders(init: RequestInit | undefined, upstream: UpstreamEra): RequestInit | undefined {
  if (upstream.era !== MODERN_ERA || init?.method !== 'POST' || typeof init.body !== 'string') return init;
  let message: unknown;
  try {
    message = JSON.parse(init.body);
  } catch {
    return init;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return init;
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(modernHeaders(message as JsonObject))) headers.set(name, value);
  return { ...init, headers };
}

/** A folder init wrote and nobody reviewed yet: its placeholders reach the model as written. */
function unreviewedWarning(folder: DescriptionFolder | undefined, dir: string | undefined): string[] {
  const names = folder?.unreviewed ?? [];
  if (!names.length) return [];
  const shown = `${names
    .slice(0, 5)
    .map((n) => `'${n}'`)
    .join(', ')}${names.length > 5 ? ` and ${names.length - 5} more` : ''}`;
  return [
    `the descriptions of ${shown} still hold REVIEW: placeholders, which clients' models will read as written; review them (mcp-pd-check lint ${dir ?? ''} counts what is left)`,
  ];
}
