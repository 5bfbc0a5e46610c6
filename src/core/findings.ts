import type {
  CheckProof,
  CheckResult,
  Finding,
  FindingLevel,
  FindingLocation,
  TranscriptExchange,
} from '../generated/report.js';
import { hintOf, renderTemplate, templateOf, type Args, type Messages } from './messages.js';
import type { Exchange } from '../transport/types.js';
import { clip } from '../util/text.js';

export interface FindingExtras {
  location?: FindingLocation;
  /** The exchanges that prove the finding. */
  transcript?: Exchange[];
  /** The shortest sequence that breaks the rule (the exploration's, shrunk). */
  sequence?: { seed: number; steps: string[]; transcript?: Exchange[] };
}

/**
 * What a rule (src/rules/) returns: a code, where in the value it was found, the data of its
 * message, and whether it fails the check (`fail`, at the check's severity) or only warns/informs.
 */
export interface RuleProblem {
  code: string;
  pointer: string;
  args: Args;
  level: 'fail' | 'warn' | 'info';
}

/** A result the run's time limit cut (not run, or stopped): it judged nothing, failed nothing. */
export const cutShort = (r: CheckResult): boolean =>
  r.status === 'error' && r.findings.some((f) => f.code === 'not-run' || f.code === 'run-time-up');

/**
 * Codes any check can produce: the runner's (a check that broke or ran out of time) and those of
 * the shared helpers (a cap on findings, a missing prerequisite). A check's own codes never reuse
 * these (a test makes sure).
 */
export const SHARED_MESSAGES = {
  'more-findings': {
    message: "…and {count} more '{code}' findings of this check, left out of the report.",
    hint: 'Fix the findings above first; the rest are usually the same fault.',
  },
  'check-crashed': {
    message: 'The check itself failed: {error}',
    hint: 'This is a problem in mcp-pd-check or an unexpected input; please report it with the JSON report attached.',
  },
  'plugin-check-crashed': {
    message: "The check of the plugin '{plugin}' failed: {error} (at {at}).",
    hint: "This is a problem in the plugin '{plugin}', not in the server: fix the check at the place above, or report it to the plugin's authors.",
  },
  'check-timeout': {
    message: 'The check did not finish within {seconds} s.',
    hint: 'A server this slow cannot be checked in full: make it answer faster, or raise --max-duration.',
  },
  'run-time-up': {
    message: 'Stopped: the run reached --max-duration ({seconds} s) while this check ran.',
    hint: 'Give the run more time: --max-duration above {seconds} s (a run of every check takes a few seconds on a quick server); if the server answers slowly, that is the time it needs.',
  },
  'not-run': {
    message: 'Not run: the run reached --max-duration ({seconds} s) before this check.',
    hint: 'Give the run more time: --max-duration above {seconds} s (a run of every check takes a few seconds on a quick server); if the server answers slowly, that is the time it needs.',
  },
  'session-unavailable': {
    message: 'A new session for this check could not be opened: {reason}.',
    hint: 'The server must accept new sessions while others are open.',
  },
  'slow-start': {
    message:
      'Not proven: a new session of the server did not start in time ({reason}); the server was slow to start, so what this check needed that session for was not tried. This is no failure of the server.',
    hint: 'Give the server more time to start with --startup-timeout (ms), e.g. --startup-timeout 60000: a heavy server, or a busy machine, can need it.',
  },
  'nothing-to-lint': 'Nothing to check: no {what} among the files read.',
  'needs-http': 'This check needs a Streamable HTTP target (--url); this is a {kind} target.',
  'needs-era': 'This check applies to protocol {eras} only (what it checks is not in {era}).',
  'not-applicable-era':
    'Not applicable in {era} over HTTP: there is no session to tie a grant to, and this server gates no call — descriptions are served on demand, calls are not gated (PD v2.1 §5 needs a session).',
  inconclusive: {
    message:
      '{subject} got no answer ({note}): that proves nothing about progressive disclosure (a slow tool, one that waits on the network or lacks credentials, or a server that went away), so it was not judged.',
    hint: 'Give slow tools more time with --timeout 15000, or point the checker at a test instance that has what its tools need.',
  },
  'not-proven': {
    message: 'Not proven: this check recorded no exchange that shows its rule holds.',
    hint: 'This is a gap in mcp-pd-check, not a failure of the server; please report it with the JSON report attached.',
  },
  unproven: {
    message:
      'Not proven: {what} got no answer ({note}), so nothing showed whether the rule holds; this is no failure of the server.',
    hint: 'Give slow tools more time with --timeout 15000, or point the checker at a test instance that has what its tools need.',
  },
} as const satisfies Messages;

export type SharedCode = keyof typeof SHARED_MESSAGES;

/** Thrown by `skip()`: the check does not apply; the runner records status `skip`. */
export class SkipCheck extends Error {
  override name = 'SkipCheck';
  constructor(
    readonly code: string,
    readonly args: Args,
  ) {
    super(code);
  }
}

/**
 * The first findings of a code carry their proof (the exchanges); the rest carry their location
 * only. One fault found on 10,000 tools would otherwise copy the same 30 KB exchange 10,000 times
 * into memory and into the report.
 */
export const MAX_PROOFS_PER_CODE = 20;

/** A message over this size is kept in the report as a preview, so reports stay readable. */
const MAX_MESSAGE_CHARS = 32 * 1024;

function clipMessage(message: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!message) return message;
  const text = JSON.stringify(message);
  if (text.length <= MAX_MESSAGE_CHARS) return message;
  return { truncatedByChecker: true, originalChars: text.length, preview: clip(text, 2000) };
}

/**
 * The exchanges of a finding as the report keeps them. Without their timing: findings are what the
 * server said, and the same run (the same --seed) gives the same findings, byte for byte.
 */
export function toTranscript(exchanges: Exchange[]): TranscriptExchange[] {
  return exchanges.map((ex) => {
    const entry: TranscriptExchange = { session: ex.session, method: ex.method, request: clipMessage(ex.request)! };
    if (ex.response) entry.response = clipMessage(ex.response);
    if (ex.noResponse) entry.noResponse = ex.noResponse;
    if (ex.progress) entry.progress = clipMessage(ex.progress);
    if (ex.note) entry.note = ex.note;
    return entry;
  });
}

/**
 * Collects the findings of one check. A finding is a code of the check's messages (or a shared
 * one) and its args; the text is rendered from the template here. `fail` records at the check's
 * own severity (a SHOULD check's failure is a warning); `warn` and `info` are fixed levels.
 */
export class FindingSink<C extends string = string> {
  readonly findings: Finding[] = [];
  /** What shows the check's rule holds (criteria pass only with one: DESIGN, "A pass is a proof"). */
  proof: CheckProof | undefined;
  /** Why nothing proves it, when that is known: a code of the check's (its hint says what would prove it). */
  missingProof: { code: string; args: Args } | undefined;
  private readonly proofs = new Map<string, number>();
  /** Set when the check was stopped by a time limit: what its work still says after that is not kept. */
  private sealed = false;

  constructor(
    private readonly messages: Messages,
    private readonly failLevel: FindingLevel,
  ) {}

  /**
   * Keeps no further findings: a check stopped by a time limit may still be running, and what it
   * sees afterwards (sessions closed under it) says nothing about the server.
   */
  seal(): void {
    this.sealed = true;
  }

  fail(code: C | SharedCode, args: Args = {}, extras: FindingExtras = {}): void {
    this.add(this.failLevel, code, args, extras);
  }
  warn(code: C | SharedCode, args: Args = {}, extras: FindingExtras = {}): void {
    this.add('warning', code, args, extras);
  }
  info(code: C | SharedCode, args: Args = {}, extras: FindingExtras = {}): void {
    this.add('info', code, args, extras);
  }

  /** A rule's result, at the level the rule gave it. */
  problem(p: RuleProblem, extras: FindingExtras = {}): void {
    const level = p.level === 'fail' ? this.failLevel : p.level === 'warn' ? 'warning' : 'info';
    this.add(level, p.code, p.args, extras);
  }

  /**
   * A `fail` that records at most `max` findings of each code and then one summary per code, for
   * checks that test every tool × session and would otherwise bury the report (a cap per code, so
   * that one flood never hides a different fault). Call `done()` at the end.
   */
  capped(max: number): { fail: (code: C, args?: Args, extras?: FindingExtras) => void; done: () => void } {
    const counts = new Map<string, number>();
    return {
      fail: (code, args = {}, extras = {}) => {
        const n = (counts.get(code) ?? 0) + 1;
        counts.set(code, n);
        if (n <= max) this.fail(code, args, extras);
      },
      done: () => {
        for (const [code, n] of counts) if (n > max) this.fail('more-findings', { count: n - max, code });
      },
    };
  }

  /** Records the exchanges that prove the check's rule holds, said by `code` (the first proof stands). */
  prove(code: C | SharedCode, args: Args, transcript: Exchange[]): void {
    if (this.proof || this.sealed) return;
    const spec = this.messages[code];
    if (spec === undefined)
      throw new Error(`the check proved with the code '${code}', which its messages do not define`);
    this.proof = {
      code,
      args,
      message: renderTemplate(templateOf(spec), args),
      ...(transcript.length ? { transcript: toTranscript(transcript) } : {}),
    };
  }

  /** Says why nothing proves the check's rule (said as the check's result when no proof comes). */
  unprovenBecause(code: C | SharedCode, args: Args = {}): void {
    this.missingProof ??= { code, args };
  }

  /**
   * Attaches a shortest sequence to the finding of `code` about `tool` (else the first of `code`)
   * that has none; false when there is no such finding.
   */
  attachSequence(code: string, sequence: NonNullable<FindingExtras['sequence']>, tool?: string): boolean {
    const open = this.findings.filter((f) => f.code === code && !f.sequence);
    const finding = open.find((f) => tool !== undefined && f.location?.tool === tool) ?? open[0];
    if (!finding) return false;
    const { transcript, ...rest } = sequence;
    finding.sequence = { ...rest, ...(transcript?.length ? { transcript: toTranscript(transcript) } : {}) };
    return true;
  }

  skip(code: C | SharedCode, args: Args = {}): never {
    throw new SkipCheck(code, args);
  }

  /** Renders and records a finding; an unknown code is a bug in the check, and says so. */
  add(level: FindingLevel, code: string, args: Args, extras: FindingExtras = {}): void {
    const spec = this.messages[code] ?? SHARED_MESSAGES[code as SharedCode];
    if (spec === undefined) throw new Error(`the check reported the code '${code}', which its messages do not define`);
    if (this.sealed) return;
    const finding: Finding = { level, code, args, message: renderTemplate(templateOf(spec), args) };
    const hint = hintOf(spec);
    if (hint) finding.hint = renderTemplate(hint, args);
    if (extras.location) finding.location = extras.location;
    if (extras.sequence) {
      const { transcript, ...rest } = extras.sequence;
      finding.sequence = { ...rest, ...(transcript?.length ? { transcript: toTranscript(transcript) } : {}) };
    }
    if (extras.transcript?.length) {
      const shown = this.proofs.get(code) ?? 0;
      if (shown < MAX_PROOFS_PER_CODE) {
        this.proofs.set(code, shown + 1);
        finding.transcript = toTranscript(extras.transcript);
      }
    }
    this.findings.push(finding);
  }
}
