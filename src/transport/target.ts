import { McpSession } from './session.js';
import { TargetUnavailableError, type JsonObject, type Wire } from './types.js';
import type { ProbeResult } from './probe.js';
import { DEFAULT_LIMITS, DEFAULT_STARTUP_TIMEOUT_MS, type WireLimits } from './limits.js';
import type { ProcessMeter } from './process-meter.js';
import type { StartSlots } from './start-slots.js';
import type { ReportTarget } from '../generated/report.js';
import { Redactor } from '../safety/redact.js';
import { LEGACY_ERA, type Era } from './era.js';

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
  /** How many server processes may be starting at once, for the whole run (every era's target). */
  startSlots?: StartSlots;
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
  /** Over stdio: what starting the command again needs besides its words (report target's `launch`). */
  readonly launch?: ReportTarget['launch'];
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
  /** How many of its server processes may be starting at once (over stdio; shared by every era's target). */
  readonly startSlots?: StartSlots | undefined;
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
  readonly startSlots: StartSlots | undefined;

  constructor(options: TargetOptions) {
    this.era = options.era ?? LEGACY_ERA;
    this.timeoutMs = options.timeoutMs;
    this.startupTimeoutMs = options.startupTimeoutMs ?? Math.max(options.timeoutMs, DEFAULT_STARTUP_TIMEOUT_MS);
    this.startupOption = options.startupOption ?? '--startup-timeout';
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.redactor = options.redactor ?? Redactor.forRun();
    this.startSlots = options.startSlots;
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
  private async openAfter(
    label: string,
    work: () => Promise<unknown>,
    clientInfo?: OpenOptions['clientInfo'],
  ): Promise<McpSession> {
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
    await Promise.all(
      spares.map((s) =>
        s.then(
          (x) => x.close(),
          () => {},
        ),
      ),
    );
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
        () => {
          this.warming--;
          this.pump();
        },
        () => {
          this.warming--;
        }, // a target that fails to start is reported by open(), not here
      );
    }
  }

  /** Starts one session (startSession), once no session is being opened `after` other work. */
  protected async start(
    label: string,
    budgetMs = this.startupTimeoutMs,
    since?: number,
    clientInfo?: OpenOptions['clientInfo'],
    throughGate = false,
  ): Promise<McpSession> {
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
  protected async startSession(
    label: string,
    budgetMs: number = this.startupTimeoutMs,
    since?: number,
    clientInfo?: OpenOptions['clientInfo'],
  ): Promise<McpSession> {
    // A check stopped by a time limit may still be running: it must not start servers after the run.
    if (this.disposed) throw new TargetUnavailableError('the run is over; no new session is started');
    // A slot to start in (a costly start waits for one): the wait is not the server's, so the
    // start-up allowance counts from once it has one.
    const release = await this.startSlots?.take();
    try {
      return await this.startWithin(label, budgetMs, since, clientInfo);
    } finally {
      release?.();
    }
  }

  private async startWithin(
    label: string,
    budgetMs: number,
    since: number | undefined,
    clientInfo: OpenOptions['clientInfo'],
  ): Promise<McpSession> {
    if (this.disposed) throw new TargetUnavailableError('the run is over; no new session is started');
    const leftSince = (from: number) => Math.max(1, Math.round(budgetMs - (performance.now() - from)));
    const wire = await this.startWire(since === undefined ? budgetMs : leftSince(since));
    const from = since ?? performance.now();
    const left = () => leftSince(from);
    if (this.disposed) {
      await wire.close();
      throw new TargetUnavailableError('the run is over; no new session is started');
    }
    const session = new McpSession(wire, {
      label,
      timeoutMs: this.timeoutMs,
      startupTimeoutMs: this.startupTimeoutMs,
      startupOption: this.startupOption,
      redactor: this.redactor,
      era: this.era,
      onLost: (s) => this.sessionLost(s),
      ...(clientInfo ? { clientInfo } : {}),
    });
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

export { TargetUnavailableError };
