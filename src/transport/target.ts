import { HttpWire, displayUrl } from './http.js';
import { SseWire } from './sse.js';
import { McpSession } from './session.js';
import { StdioWire, type StdioCommand } from './stdio.js';
import { SlowStartError, TargetUnavailableError, type JsonObject, type Wire } from './types.js';
import { postProbe, type ProbeResult } from './probe.js';
import { httpRequest } from './http-request.js';
import { DEFAULT_LIMITS, DEFAULT_STARTUP_TIMEOUT_MS, type WireLimits } from './limits.js';
import { ProcessFamily } from './stragglers.js';
import type { ProcessMeter } from './process-meter.js';
import type { ReportTarget } from '../generated/report.js';
import { Redactor } from '../safety/redact.js';
import { publishableArguments } from '../safety/arguments.js';
import { LEGACY_ERA, MODERN_ERA, type Era } from './era.js';

/**
 * How many spare sessions start at the same time: all a default run needs (1 + N over stdio, as
 * the floor of `npm run bench` does), a bounded number when --sessions asks for many processes.
 */
const WARMERS = 16;

/** How a target talks to its server: request time limit, message limits, what to mask. */
export interface TargetOptions {
  /** Time limit of every request, in ms. */
  timeoutMs: number;
  /**
   * Time a session gets to start and answer initialize, in ms: a process's start-up allowance
   * (default: 30 s, or timeoutMs if longer); for a URL, one budget for the whole connection attempt
   * whatever transports are tried (default: timeoutMs).
   */
  startupTimeoutMs?: number;
  /** The option that set `startupTimeoutMs`, as errors name it ('--startup-timeout' or '--timeout'). */
  startupOption?: string;
  limits?: WireLimits;
  /** Masks secrets in what the server sends; by default, those of this process's environment. */
  redactor?: Redactor;
  /** The protocol era its sessions speak (default 2025-11-25). */
  era?: Era;
  /** Counts the server processes started (over stdio) for the whole run, every era's target. */
  meter?: ProcessMeter;
}

export interface OpenOptions {
  /** Start a brand-new session now rather than take a warmed-up one (used to prove "starts bare"). */
  fresh?: boolean;
  /** The client it says it is (a session of its own: spares said the checker's own name). */
  clientInfo?: { name: string; version: string };
  /**
   * Work (ending other sessions) after which this session is the very next one the server sees
   * start: sessions starting meanwhile finish first, and none starts until this one is initialized.
   * A server that hands an ended session's state to "the next session" then hands it to this one
   * in every run, whatever else the run is doing (DESIGN: an order a proof needs is made, not hoped for).
   */
  after?: () => Promise<unknown>;
}

/** Something that can open initialized MCP sessions: a stdio command or a Streamable HTTP URL. */
export interface Target {
  readonly kind: ReportTarget['kind'];
  /** The protocol era its sessions speak. */
  readonly era: Era;
  readonly describe: string;
  open(label: string, options?: OpenOptions): Promise<McpSession>;
  /** A hint: about `count` sessions will be opened soon; a target may start them ahead. */
  reserve(count: number): void;
  /** Closes every session it started, spares included. */
  dispose(): Promise<void>;
  /** Every session started so far (for checks over the whole run's traffic). */
  sessionsStarted(): McpSession[];
  /** How the sessions were spoken to, once known (over HTTP: Streamable HTTP or legacy SSE). */
  transport?(): ReportTarget['transport'];
  /** Whether a new session is cheap (over HTTP) or costs a server process (over stdio). */
  readonly cheapSessions?: boolean;
  /** A plain GET of a path on the server's origin (HTTP targets only: well-known files). */
  get?(path: string): Promise<HttpGetResult>;
  /**
   * One POST to the MCP endpoint outside any session, with the user's headers plus `headers`
   * (HTTP targets only: Host and Origin probes, a request without Mcp-Session-Id).
   */
  probe?(message: JsonObject, headers: Record<string, string>): Promise<ProbeResult & { url: string }>;
  /** The endpoint's URL (HTTP targets only). */
  readonly endpoint?: URL;
  /** The first session whose server went away while it was open (a process that exited, an HTTP server gone). */
  lostSession?(): McpSession | undefined;
  /** Told once, when a session's server first goes away. */
  onLost?(handler: (session: McpSession) => void): void;
}

export interface HttpGetResult {
  url: string;
  status?: number;
  contentType?: string;
  body?: string;
  problem?: string;
}

/** The label of a session started ahead that no one has taken yet. */
export const SPARE = 'spare';

/**
 * Opening a session is the slow part of a run (over stdio a new server process, ~0.2 s of CPU),
 * while the checker mostly waits; so reserved sessions are started ahead, a few at a time. A
 * spare is idle and has fetched nothing, so it cannot change what any check observes.
 */
export abstract class PooledTarget implements Target {
  abstract readonly kind: ReportTarget['kind'];
  abstract readonly describe: string;
  private readonly spares: Array<Promise<McpSession>> = [];
  private reserved = 0;
  private warming = 0;
  private disposed = false;
  private readonly started = new Set<McpSession>();
  private firstLost: McpSession | undefined;
  private readonly lostHandlers: Array<(session: McpSession) => void> = [];
  /** Sessions starting now (until initialize is answered). */
  private readonly starting = new Set<Promise<unknown>>();
  /** While set, no session starts but the one being opened `after` something (see OpenOptions.after). */
  private gate: Promise<void> | undefined;
  protected readonly timeoutMs: number;
  protected readonly startupTimeoutMs: number;
  protected readonly startupOption: string;
  protected readonly limits: WireLimits;
  readonly redactor: Redactor;
  readonly era: Era;

  constructor(options: TargetOptions) {
    this.era = options.era ?? LEGACY_ERA;
    this.timeoutMs = options.timeoutMs;
    this.startupTimeoutMs = options.startupTimeoutMs ?? Math.max(options.timeoutMs, DEFAULT_STARTUP_TIMEOUT_MS);
    this.startupOption = options.startupOption ?? '--startup-timeout';
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.redactor = options.redactor ?? Redactor.forRun();
  }

  /** Starts a session's wire within `budgetMs` (the part of the start-up allowance it may use). */
  protected abstract startWire(budgetMs: number): Promise<Wire>;

  sessionsStarted(): McpSession[] {
    return [...this.started];
  }

  lostSession(): McpSession | undefined {
    return this.firstLost;
  }

  onLost(handler: (session: McpSession) => void): void {
    if (this.firstLost) handler(this.firstLost);
    else this.lostHandlers.push(handler);
  }

  private sessionLost(session: McpSession): void {
    if (this.firstLost || this.disposed) return;
    this.firstLost = session;
    for (const h of this.lostHandlers.splice(0)) h(session);
  }

  reserve(count: number): void {
    this.reserved = count;
    this.pump();
  }

  async open(label: string, options: OpenOptions = {}): Promise<McpSession> {
    if (options.after) return this.openAfter(label, options.after, options.clientInfo);
    let session: McpSession | undefined;
    if (!options.fresh && !options.clientInfo) {
      this.reserved = Math.max(0, this.reserved - 1);
      const spare = this.spares.shift();
      // A spare that could not start is this start's answer too: starting another would take as long.
      if (spare) session = await spare;
      if (session?.closed) session = undefined;
    }
    session ??= await this.start(label, undefined, undefined, options.clientInfo);
    session.relabel(label);
    return session;
  }

  /** A new session that is the next one started after `work` (see OpenOptions.after). */
  private async openAfter(label: string, work: () => Promise<unknown>, clientInfo?: OpenOptions['clientInfo']): Promise<McpSession> {
    while (this.gate) await this.gate;
    let open!: () => void;
    this.gate = new Promise((resolve) => (open = resolve));
    try {
      // Sessions that began starting before: their initialize is answered first.
      await Promise.allSettled([...this.starting]);
      await work();
      const session = await this.start(label, undefined, undefined, clientInfo, true);
      session.relabel(label);
      return session;
    } finally {
      this.gate = undefined;
      open();
    }
  }

  /**
   * Ends every session now, spares and sessions still starting included: requests in flight are
   * answered as closed, and no session starts after it (the end of a run, or its deadline).
   */
  async dispose(): Promise<void> {
    this.disposed = true;
    const spares = this.spares.splice(0);
    const closeStarted = () => Promise.all([...this.started].map((s) => s.close()));
    // Sessions still starting are closed first, so that no one waits out their start-up allowance.
    await closeStarted();
    await Promise.all(spares.map((s) => s.then((x) => x.close(), () => {})));
    await closeStarted();
    // Sessions the run dropped on purpose are ended on the server now that nothing more is observed.
    await Promise.all([...this.started].map((s) => s.release()));
  }

  private pump(): void {
    while (this.warming < WARMERS && !this.disposed && this.spares.length < this.reserved) {
      this.warming++;
      const spare = this.start(SPARE);
      this.spares.push(spare);
      spare.then(
        () => { this.warming--; this.pump(); },
        () => { this.warming--; }, // a target that fails to start is reported by open(), not here
      );
    }
  }

  /** Starts one session (startSession), once no session is being opened `after` other work. */
  protected async start(label: string, budgetMs = this.startupTimeoutMs, since?: number, clientInfo?: OpenOptions['clientInfo'], throughGate = false): Promise<McpSession> {
    // A session that must be the next one the server sees start goes first (OpenOptions.after).
    while (this.gate && !throughGate) await this.gate;
    const started = this.startSession(label, budgetMs, since, clientInfo);
    this.starting.add(started);
    try {
      return await started;
    } finally {
      this.starting.delete(started);
    }
  }

  /**
   * Starts one session: its wire, then initialize, within `budgetMs`. Counted from `since` when
   * given (a URL: connecting is part of the attempt, and another transport may have spent some of
   * it), else from once the wire has started (a process: the allowance is for its start-up).
   */
  protected async startSession(label: string, budgetMs: number = this.startupTimeoutMs, since?: number, clientInfo?: OpenOptions['clientInfo']): Promise<McpSession> {
    // A check stopped by a time limit may still be running: it must not start servers after the run.
    if (this.disposed) throw new TargetUnavailableError('the run is over; no new session is started');
    const leftSince = (from: number) => Math.max(1, Math.round(budgetMs - (performance.now() - from)));
    const wire = await this.startWire(since === undefined ? budgetMs : leftSince(since));
    const from = since ?? performance.now();
    const left = () => leftSince(from);
    if (this.disposed) {
      await wire.close();
      throw new TargetUnavailableError('the run is over; no new session is started');
    }
    const session = new McpSession(wire, { label, timeoutMs: this.timeoutMs, startupTimeoutMs: this.startupTimeoutMs, startupOption: this.startupOption, redactor: this.redactor, era: this.era, onLost: (s) => this.sessionLost(s), ...(clientInfo ? { clientInfo } : {}) });
    this.started.add(session);
    try {
      await session.initialize(left(), from);
    } catch (err) {
      await session.close();
      throw err;
    }
    return session;
  }
}

/** Over stdio, each session is one server process. */
export class StdioTarget extends PooledTarget {
  readonly kind = 'stdio' as const;
  readonly describe: string;
  /** Its servers and what they start: cleaned up at the end, and never another target's. */
  private readonly family: ProcessFamily;

  constructor(private readonly command: StdioCommand, options: TargetOptions) {
    super(options);
    this.family = new ProcessFamily(options.meter);
    // As reports show it and a reader may paste it: a secret among its arguments is `${VAR}` (what init writes), never the value.
    this.describe = publishableArguments([command.command, ...command.args]).args.map(quoteIfNeeded).join(' ');
  }

  protected startWire(): Promise<Wire> {
    return StdioWire.start(this.command, this.family, this.limits, (text) => this.redactor.text(text));
  }

  transport(): 'stdio' {
    return 'stdio';
  }

  override async dispose(): Promise<void> {
    await super.dispose();
    // Whatever its servers started and left behind (even outside their process groups).
    this.family.killStragglers();
  }
}

/** How an HTTP target is spoken to: Streamable HTTP, the 2024-11-05 HTTP+SSE transport, or whichever works. */
export type HttpTransport = 'auto' | 'streamable-http' | 'sse';

/**
 * Over HTTP, each session is one Mcp-Session-Id (Streamable HTTP) or one event stream (the older
 * HTTP+SSE transport). With `auto`, the first session tries Streamable HTTP as MCP clients do and
 * falls back to HTTP+SSE when initialize gets a 4xx; the other sessions wait for that decision.
 */
export class HttpTarget extends PooledTarget {
  readonly kind = 'http' as const;
  readonly cheapSessions = true;
  readonly describe: string;
  private readonly mode: HttpTransport;
  private chosen: 'streamable-http' | 'sse' | undefined;
  private deciding: Promise<McpSession> | undefined;
  private lastHttpWire: HttpWire | undefined;

  /** `headers` go on every request and never into a report. */
  constructor(private readonly url: URL, private readonly headers: Record<string, string>, options: TargetOptions & { transport?: HttpTransport }) {
    // A URL has no process to start: its first request gets the request limit unless told otherwise.
    super({ ...options, startupTimeoutMs: options.startupTimeoutMs ?? options.timeoutMs, startupOption: options.startupOption ?? '--timeout', redactor: options.redactor ?? Redactor.forRun({ headers }) });
    this.describe = displayUrl(url);
    // 2026-07-28 is spoken over Streamable HTTP only: the older HTTP+SSE transport is of 2024.
    this.mode = options.era === MODERN_ERA ? 'streamable-http' : options.transport ?? 'auto';
    if (this.mode !== 'auto') this.chosen = this.mode;
  }

  transport(): 'streamable-http' | 'sse' {
    return this.chosen ?? 'streamable-http';
  }

  protected async startWire(budgetMs: number): Promise<Wire> {
    const redact = (text: string) => this.redactor.text(text);
    if (this.transport() === 'sse') return SseWire.connect(this.url, this.headers, budgetMs, this.limits, redact);
    const wire = new HttpWire(this.url, this.headers, this.limits, redact);
    this.lastHttpWire = wire;
    return wire;
  }

  /**
   * The first session decides the transport, within one start-up budget whatever transports it
   * tries; the others wait for that decision, and fail with its error when it failed (one
   * connection attempt, not one per session).
   */
  protected override async startSession(label: string, _budgetMs?: number, _since?: number, clientInfo?: OpenOptions['clientInfo']): Promise<McpSession> {
    const since = performance.now();
    // HTTP+SSE asked for (--transport sse): a server that does not offer it is said to be unreachable that way.
    if (this.mode === 'sse') {
      return super.startSession(label, this.startupTimeoutMs, since, clientInfo).catch((err: Error) => {
        throw err instanceof TargetUnavailableError && !(err instanceof SlowStartError)
          ? new TargetUnavailableError(`the HTTP+SSE transport asked for with --transport sse did not work: ${err.message}; the server may offer Streamable HTTP only (leave --transport out, or give streamable-http)`)
          : err;
      });
    }
    if (this.chosen) return super.startSession(label, this.startupTimeoutMs, since, clientInfo);
    if (this.deciding) {
      await this.deciding;
      return super.startSession(label, this.startupTimeoutMs, performance.now(), clientInfo);
    }
    this.deciding = (async () => {
      try {
        const session = await super.startSession(label, this.startupTimeoutMs, since, clientInfo);
        this.chosen ??= 'streamable-http';
        return session;
      } catch (err) {
        // Only a 4xx other than 401/403 says "not Streamable HTTP here"; anything else is the answer.
        const status = this.lastHttpWire?.firstStatus;
        if (!(err instanceof TargetUnavailableError) || status === undefined || status < 400 || status > 499 || status === 401 || status === 403) throw err;
        this.chosen = 'sse';
        try {
          return await super.startSession(label, this.startupTimeoutMs, since);
        } catch (sseErr) {
          const waited = Math.round(performance.now() - since);
          throw new TargetUnavailableError(`${err.message}; the older HTTP+SSE transport did not work either: ${(sseErr as Error).message} (${waited} ms in all)`);
        }
      }
    })();
    return this.deciding;
  }

  get endpoint(): URL {
    return new URL(this.url.href);
  }

  async probe(message: JsonObject, headers: Record<string, string>): Promise<ProbeResult & { url: string }> {
    const got = await postProbe(this.url, { ...this.headers, ...headers }, message, this.timeoutMs);
    return { url: displayUrl(this.url), ...got, ...(got.body !== undefined ? { body: this.redactor.text(got.body) } : {}) };
  }

  /** A plain GET of a path on the server's origin (well-known files), with the user's headers. */
  async get(path: string, timeoutMs = this.timeoutMs): Promise<HttpGetResult> {
    const url = new URL(path, this.url.origin);
    const shown = displayUrl(url);
    try {
      const res = await httpRequest(url, { method: 'GET', headers: this.headers, signal: AbortSignal.timeout(timeoutMs) });
      const length = Number(res.headers.get('content-length') ?? 0);
      if (length > 4 * 1024 * 1024) {
        await res.body?.cancel();
        return { url: shown, status: res.status, problem: `the response is ${length} bytes` };
      }
      return { url: shown, status: res.status, contentType: res.headers.get('content-type') ?? undefined, body: this.redactor.text(await res.text()) };
    } catch (err) {
      return { url: shown, problem: (err as Error).name === 'TimeoutError' ? `no response within ${timeoutMs} ms` : (err as Error).message };
    }
  }
}

function quoteIfNeeded(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  // A ${VAR} placeholder stays one the shell reads from the environment: double quotes.
  if (/\$\{[A-Z0-9_]+\}/.test(arg) && !/["`\\]/.test(arg)) return `"${arg}"`;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export { TargetUnavailableError };
