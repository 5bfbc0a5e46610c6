import type { TranscriptExchange } from '../generated/report.js';

/** A parsed JSON-RPC message as it came over the wire (unknown fields kept). */
export type JsonObject = Record<string, unknown>;

/** Why a request got no response. */
export type NoResponse = 'timeout' | 'closed' | 'cancelled';

/**
 * One request and what came back, recorded raw: this is the proof a finding carries.
 * `response` is the whole JSON-RPC response object (result or error), exactly as received.
 * The shape is the report schema's transcript entry, narrowed for use in code.
 */
export type Exchange = TranscriptExchange & {
  request: JsonObject;
  response?: JsonObject;
  noResponse?: NoResponse;
  durationMs: number;
};

/** A duplex channel of JSON-RPC messages to one server session (stdio process, HTTP session…). */
export interface Wire {
  /** A short description for reports: the command line, or the URL. */
  readonly describe: string;
  send(message: JsonObject): Promise<void>;
  onMessage(handler: (message: JsonObject) => void): void;
  /** Lines on the wire that were not JSON-RPC (a stdio server that logs to stdout). */
  onGarbage(handler: (text: string) => void): void;
  /**
   * Called once when the wire is gone (process exit, stream end); `reason` is human-readable.
   * `lost`: the server went away on its own — a process that exited while the session was open,
   * an HTTP server that stopped taking connections — not closed by the checker.
   */
  onClose(handler: (reason: string, lost?: boolean) => void): void;
  /**
   * End the session and release everything; resolves when it is really gone. `terminate: false`
   * just drops the connection (over HTTP: no DELETE), as a client that vanishes would.
   */
  close(options?: { terminate?: boolean }): Promise<void>;
  /**
   * After the run, of a session it dropped (`terminate: false`): tell the server now (HTTP: the
   * DELETE it did not get), so that a run leaves no session behind on a server that keeps them.
   */
  release?(): Promise<void>;
  /** A request the transport itself could not deliver or get an answer to (HTTP 500, HTML…). */
  onRequestFailed?(handler: (id: unknown, reason: string) => void): void;
  /** HTTP: told which of the session's connections (numbered from 0 as they are first used) a request went on. */
  onConnection?(handler: (id: unknown, connection: number, socket?: number) => void): void;
  /** The request `id` timed out: stop reading whatever still arrives for it (HTTP: its response stream). */
  abandon?(id: unknown): void;
  /** Told the negotiated protocol version (HTTP sends it as a header on later requests). */
  setProtocolVersion?(version: string): void;
  /** HTTP: the status of the first response (a 4xx to an opening request: the server speaks something else). */
  readonly firstStatus?: number;
  /** The last lines the server wrote to its log stream (sanitised, bounded). */
  stderrTail(): string[];
  /** How many lines the server has written to stderr so far (a process only). */
  stderrCount?(): number;
  /** How long the server process has been running, in ms (a process only). */
  alive?(): number;
  /** The resident memory of the server process and what it started, in MB (a process, where /proc tells it). */
  residentMb?(): number | undefined;
  /**
   * What the server's start cost, once it answered: CPU time of it and what it started, wall time to its first output
   * (a process, where /proc tells it).
   */
  startCost?(): { cpuMs: number; wallMs: number } | undefined;
  /** Whether the server command starts a container (each session one: its memory is not the command's). */
  readonly startsContainer?: boolean;
  /** HTTP: the session's next requests go on new connections (as after a pause long enough for them to be dropped). */
  renewConnections?(): void;
  /**
   * HTTP: this session's next requests go on `other`'s one connection (both sessions share a keep-alive socket); false
   * where there is no such thing.
   */
  joinConnections?(other: Wire): boolean;
  /**
   * HTTP: opens `count` new connections for that many requests about to be sent together (they leave together only on
   * connections alike).
   */
  openConnections?(count: number, timeoutMs: number): Promise<void>;
  /** Over Streamable HTTP, once the session ended: a request under its old session id (its HTTP status). */
  afterEnd?(
    message: JsonObject,
    timeoutMs: number,
  ): Promise<{ status?: number; body?: string; problem?: string } | undefined>;
}

/** Raised when a target cannot be started or reached; the CLI maps it to exit code 3. */
export class TargetUnavailableError extends Error {
  override name = 'TargetUnavailableError';
  /** The server as reports show it (the command, or the URL without credentials), once the library knows it. */
  target?: string;
}

/**
 * The server did not answer the opening request in time: it may only be slow to start (a heavy
 * server, a busy machine). For a later session of a server that already started once, that proves
 * nothing about it (DESIGN, "When a proof is inconclusive").
 */
export class SlowStartError extends TargetUnavailableError {
  override name = 'SlowStartError';
}
