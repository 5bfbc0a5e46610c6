import { classifyCall } from '../protocol/calls.js';
import { isPlainObject, resourceJson } from '../protocol/payload.js';
import type { McpSession } from '../transport/session.js';
import { connectionOf, timesOf } from '../transport/exchange-times.js';
import type { Exchange } from '../transport/types.js';
import { attribute, evidenceOf, lostGrant, type PastStep, type RanCall } from './attribution.js';
import { judgeCall } from './call.js';
import { transition } from './state.js';
import { ALL_EXCHANGES, overlapsOthers, stepsOf, timeline, type Scope, type Step } from './timeline.js';
import { CRITERION, emptySession, SESSION_LIFECYCLE, type RuleBreak, type SessionModel, type World } from './world.js';
import { proofsOf, type Observed, type ProofOf } from './proofs.js';
import { bestOrder } from './orders.js';

/** What the model concluded about a run: every broken rule, and what the report says beside them. */
export interface Judgement {
  breaks: RuleBreak[];
  /** Requests that got no answer (a timeout, a closed transport): they prove nothing, and are said as such. */
  inconclusive: Inconclusive[];
  /** How refusals and missing-selection errors were signalled (for the report). */
  refusalForms: Set<string>;
  missingForms: Set<string>;
  /** What the judged sessions leave behind for a later run against the same server. */
  leftBehind: LeftBehind;
  /** Criteria 6, 7 and 8: what proves each, or why nothing does. */
  proofs: ProofOf[];
}

/**
 * What one run's sessions leave behind for a later run against the same server (the next
 * protocol era): each session with the grants it held, as ended (each with the read that first
 * gave it), and the tools the run saw refused. A grant of theirs that a later session can use is inherited (§5.1, §5.2).
 */
export interface LeftBehind {
  ended: ReadonlyArray<{ session: McpSession; grants: ReadonlyMap<string, Exchange | undefined> }>;
  refusedTools: ReadonlySet<string>;
}

/** A request that proves nothing about progressive disclosure, by the check whose rule it was to prove. */
export interface Inconclusive {
  check: string;
  /** What was asked, in words ("calling 'x'", "reading ?tools=a"). */
  subject: string;
  tool?: string;
  note: string;
  proof: Exchange[];
}

interface Live {
  model: SessionModel;
  history: PastStep[];
  /** The read that gave each grant last (the proof beside a later finding). */
  fetchOf: Map<string, Exchange>;
  /** The read that gave each grant first: held from then on (the model never takes a grant back). */
  heldSince: Map<string, Exchange>;
}

/**
 * Replays every exchange of the sessions (DESIGN, "The model") and returns the rules they broke,
 * each owned by one criterion. Steps of one session in flight together are taken in the order
 * the model can explain best (some serial order must explain them).
 */
export function judge(world: World, sessions: readonly McpSession[], scope: Scope = ALL_EXCHANGES, prior?: LeftBehind): Judgement {
  const own = [...new Set(sessions)];
  const all = stepsOf(own, scope, world.descriptionsTool);
  const live = new Map<McpSession, Live>();
  // Sessions of an earlier run against the same server (the other protocol era) count as ended ones.
  const ended: Array<{ session: McpSession; grants: ReadonlyMap<string, Exchange | undefined> }> = [...(prior?.ended ?? [])];
  const priorSessions = new Set((prior?.ended ?? []).map((e) => e.session));
  const out: Judgement = { breaks: [], inconclusive: [], refusalForms: new Set(), missingForms: new Set(), leftBehind: { ended: [], refusedTools: new Set() }, proofs: [] };
  const observed: Observed = { refusals: [], granted: [] };
  const inconclusive = (check: string, subject: string, ex: Exchange, tool?: string) => out.inconclusive.push({ check, subject, ...(tool !== undefined ? { tool } : {}), note: ex.note ?? ex.noResponse ?? 'no response', proof: [ex] });
  const ran: RanCall[] = [];
  // When the first read of descriptions was sent, in any session (an earlier era's sessions read before this run began).
  const firstRead = (prior?.ended ?? []).some((e) => e.grants.size > 0) ? Number.NEGATIVE_INFINITY
    : Math.min(...all.filter((s) => s.op.kind === 'read' || s.op.kind === 'read-missing').map((s) => s.sent), Number.POSITIVE_INFINITY);
  const lost: Array<{ step: Step; code: string; fetch?: Exchange; concurrent: boolean; workedBefore: boolean }> = [];
  const refusedTools = new Set<string>(prior?.refusedTools ?? []);
  const presence = new Map<string, Array<{ presence: 'keyed' | 'wrapped' | 'absent'; items: string[]; unknown: string[]; ex: Exchange }>>();
  const stateOf = (session: McpSession) => live.get(session) ?? live.set(session, { model: emptySession(), history: [], fetchOf: new Map(), heldSince: new Map() }).get(session)!;

  const apply = (step: Step, state: Live, record: boolean): 'ok' | 'bad' => {
    const { op, ex } = step;
    if (op.kind === 'list') {
      const page = world.listing.get(op.cursor ?? '');
      const tools = (ex.response?.result as { tools?: unknown } | undefined)?.tools;
      if (record && page !== undefined && tools !== undefined && JSON.stringify(tools) !== page) {
        out.breaks.push({ check: CRITERION.listing, code: 'listing-changed', args: { granted: [...state.model.grants] }, level: 'fail', proof: [ex] });
      }
      return 'ok';
    }
    if (op.kind === 'after-end') {
      // MCP transports: a request under a terminated session's id is answered 404.
      if (record && op.status !== 404 && op.status !== undefined) out.breaks.push({ check: SESSION_LIFECYCLE, code: 'ended-session-answered', args: { session: step.session.label, status: op.status }, level: 'fail', proof: [ex] });
      return 'ok';
    }
    if (op.kind === 'read') {
      const analysis = transition(world, state.model, op, ex).read!;
      if (analysis.inconclusive) {
        // No answer: nothing is judged, and it is no read that could have authorized a later call.
        if (record) inconclusive(CRITERION.names, `reading ?tools=${op.items.join(',')}`, ex);
        return 'ok';
      }
      if (!analysis.refused) {
        for (const tool of analysis.returned) {
          state.fetchOf.set(tool, ex);
          if (!state.heldSince.has(tool)) state.heldSince.set(tool, ex);
        }
      }
      if (record) {
        // A read through the tool form is judged against the resource's answer by pd-descriptions-tool, not here.
        if (ex.method !== 'tools/call') out.breaks.push(...analysis.breaks);
        state.history.push({ kind: 'read', read: { items: op.items, refused: analysis.refused, returned: analysis.refused ? new Set() : analysis.returned, ex } });
        if (ex.method !== 'tools/call') for (const [tool, where] of analysis.presence) (presence.get(tool) ?? presence.set(tool, []).get(tool)!).push({ presence: where, items: [...new Set(op.items)], unknown: analysis.unknown, ex });
      }
      return 'ok';
    }
    if (op.kind === 'read-missing') {
      const analysis = transition(world, state.model, op, ex).missing!;
      if (analysis.inconclusive) {
        if (record) inconclusive(CRITERION.missing, `reading ${op.uri}`, ex);
        return 'ok';
      }
      // A read without a selection grants nothing: a call it authorized is criterion 6's (a failed fetch).
      if (record) state.history.push({ kind: 'read', read: { items: [], refused: false, returned: new Set(), ex } });
      if (record && ex.method !== 'tools/call') {
        out.breaks.push(...analysis.breaks);
        if (analysis.form) out.missingForms.add(analysis.form);
      }
      return 'ok';
    }
    const verdict = judgeCall(world, state.model, op.tool, op.args, ex);
    if (record && classifyCall(ex).kind !== 'no-response') state.history.push({ kind: 'call', tool: op.tool, refused: classifyCall(ex).kind === 'refused' });
    if (verdict.kind === 'grant-lost' || verdict.kind === 'ran') {
      if (record && verdict.kind === 'grant-lost') {
        const workedBefore = state.history.slice(0, -1).some((h) => h.kind === 'call' && h.tool === op.tool && !h.refused);
        lost.push({ step, code: verdict.code, fetch: state.fetchOf.get(op.tool), concurrent: overlapsOthers(step, all), workedBefore });
      }
      if (record && verdict.kind === 'ran') ran.push({ ...ranCall(step, verdict.how, state, live, ended, priorSessions), beforeAnyRead: step.done < firstRead });
      return 'bad';
    }
    if (!record) return 'ok';
    if (verdict.kind === 'as-expected') {
      out.breaks.push(...verdict.breaks);
      if (verdict.form) {
        out.refusalForms.add(verdict.form);
        refusedTools.add(op.tool);
        observed.refusals.push(seenRefusal(step, live, ended, priorSessions));
      } else if (world.toolSet.has(op.tool) && state.model.grants.has(op.tool)) {
        observed.granted.push({ session: step.session, tool: op.tool, ex, ...(state.fetchOf.get(op.tool) ? { fetch: state.fetchOf.get(op.tool) } : {}) });
      }
    } else if (verdict.kind === 'no-response') {
      // A slow tool, one that waits on the network, a server that went away: it proves nothing.
      inconclusive(verdict.granted ? CRITERION.grants : CRITERION.refusal, `calling '${op.tool}'${verdict.granted ? '' : ' unfetched'}`, ex, op.tool);
    }
    return 'ok';
  };

  for (const event of timeline(own, scope, world.descriptionsTool)) {
    if (event.kind === 'end') {
      const state = live.get(event.session);
      if (state) ended.push({ session: event.session, grants: heldGrants(state) });
      live.delete(event.session);
      continue;
    }
    const state = stateOf(event.session);
    // Tried on copies of the state: only the order chosen is applied for real.
    const trial = (): Live => ({ model: { grants: new Set(state.model.grants), open: new Set(state.model.open) }, history: [], fetchOf: new Map(), heldSince: new Map() });
    for (const step of bestOrder(event.steps, trial, (step, copy) => apply(step, copy, false))) apply(step, state, true);
  }
  // A refusal in any form shows the server enforces that tool (classifyCall counts every form).
  const refusals = new Map<string, Array<{ session: McpSession; ex: Exchange }>>();
  for (const step of all) {
    if (step.op.kind !== 'call' || classifyCall(step.ex).kind !== 'refused') continue;
    refusedTools.add(step.op.tool);
    (refusals.get(step.op.tool) ?? refusals.set(step.op.tool, []).get(step.op.tool)!).push({ session: step.session, ex: step.ex });
  }
  const evidence = evidenceOf(ran, refusedTools, refusals);
  const proven = new Map();
  for (const call of ran) out.breaks.push(attribute(call, evidence, proven));
  for (const l of lost) out.breaks.push(lostGrant(l.step.session, (l.step.op as { tool: string }).tool, l.code, l.step.ex, l.fetch, l.concurrent && l.workedBefore && !onAnotherConnection(l.step, l.fetch, all) && recovered(l.step, all)));
  out.breaks.push(...presenceBreaks(presence));
  // A grant the resource's reads break too is the grant store's (criterion 6), not the tool form's:
  // one defect, one red criterion.
  if (out.breaks.some((b) => b.check === CRITERION.grants && b.level === 'fail')) out.breaks = out.breaks.filter((b) => b.check !== CRITERION.toolForm);
  out.proofs = proofsOf(observed);
  out.leftBehind = { ended: [...ended, ...[...live].map(([session, state]) => ({ session, grants: heldGrants(state) }))], refusedTools };
  return out;
}

/**
 * Whether a refused call went on a connection of its session (over HTTP) on which the grant was
 * never seen, neither by its fetch nor by a call that ran: a server may keep grants by connection,
 * and which of a session's connections a request takes is the client's pool's doing (requests at
 * once take several; which is free next follows when answers end). Such a refusal is a grant not
 * kept for the session (6), never sessions mixed up (8): in 1 of ~20 runs beside busy loops a
 * per-connection server's call went back to the fetch's connection, and worked, and was taken for a mix-up.
 */
function onAnotherConnection(step: Step, fetch: Exchange | undefined, all: readonly Step[]): boolean {
  const on = connectionOf(step.ex);
  if (on === undefined) return false;
  const tool = (step.op as { tool: string }).tool;
  const held = new Set(fetch ? [connectionOf(fetch)] : []);
  for (const s of all) {
    if (s.session === step.session && s.sent < step.sent && s.op.kind === 'call' && s.op.tool === tool && classifyCall(s.ex).kind === 'authorized') held.add(connectionOf(s.ex));
  }
  return !held.has(on);
}

/**
 * Whether a grant refused at `step` worked again later in its session with no new read of the
 * tool in between: the loss did not last, so the answer was another session's (a request of it
 * taken for this one's), not a grant that lapsed.
 */
function recovered(step: Step, all: readonly Step[]): boolean {
  const tool = (step.op as { tool: string }).tool;
  for (const later of all) {
    if (later.session !== step.session || later.sent <= step.sent) continue;
    if (later.op.kind === 'read' && later.op.items.some((n) => n.trim() === tool)) return false;
    if (later.op.kind === 'call' && later.op.tool === tool && classifyCall(later.ex).kind === 'authorized') return true;
  }
  return false;
}

/** A refusal of an unfetched call, with a live session that held the tool then, and an ended one that held it before this session started. */
function seenRefusal(step: Step, live: Map<McpSession, Live>, ended: ReadonlyArray<{ session: McpSession; grants: ReadonlyMap<string, Exchange | undefined> }>, prior: ReadonlySet<McpSession>): Observed['refusals'][number] {
  const tool = (step.op as { tool: string }).tool;
  // Of several, the first by name: the same one in every run, whatever the timing.
  const holder = [...live].filter(([s, l]) => s !== step.session && l.model.grants.has(tool)).sort(([a], [b]) => byLabel(a, b))[0];
  // Only this run's own sessions prove isolation: the other era's run overlaps this one, so which
  // of its sessions had ended by then is a matter of timing, and a proof must be the same with the same seed.
  const endedHolder = ended.filter((e) => e.session !== step.session && e.grants.has(tool) && !prior.has(e.session) && (e.session.endedAt ?? Infinity) <= step.session.startedAt).sort((a, b) => byLabel(a.session, b.session))[0];
  return {
    session: step.session, tool, ex: step.ex,
    ...(holder ? { heldBy: { session: holder[0], fetch: holder[1].fetchOf.get(tool) } } : {}),
    ...(endedHolder ? { endedHolder: { session: endedHolder.session, fetch: endedHolder.grants.get(tool) } } : {}),
  };
}

function ranCall(step: Step, how: RanCall['how'], state: Live, live: Map<McpSession, Live>, ended: ReadonlyArray<{ session: McpSession; grants: ReadonlyMap<string, Exchange | undefined> }>, prior: ReadonlySet<McpSession>): Omit<RanCall, 'beforeAnyRead'> {
  const tool = (step.op as { tool: string }).tool;
  const holders = [...live].filter(([s, l]) => s !== step.session && l.model.grants.has(tool)).sort(([a], [b]) => byLabel(a, b)).map(([session, l]) => ({ session, fetch: l.fetchOf.get(tool) }));
  const heldBy = (list: typeof ended) => list.filter((e) => e.session !== step.session && e.grants.has(tool)).sort((a, b) => byLabel(a.session, b.session)).map((e) => ({ session: e.session, fetch: e.grants.get(tool) }));
  // An earlier run's sessions (the other era's) explain a grant only where this run's do not, and
  // only one whose read was sent before this step was answered (the eras' runs overlap).
  const ownEnded = heldBy(ended.filter((e) => !prior.has(e.session)));
  const endedHolders = holders.length || ownEnded.length ? ownEnded : heldBy(ended.filter((e) => prior.has(e.session))).filter((h) => heldAt(h.fetch, step));
  return { session: step.session, tool, ex: step.ex, how, history: state.history.slice(0, -1), holders, endedHolders };
}

/**
 * Whether a grant of the other era's run, given by `fetch`, could have been held at `step`: its
 * read was sent before the step was answered (some serial order puts the read first). A grant
 * whose read is not known counts.
 */
function heldAt(fetch: Exchange | undefined, step: Step): boolean {
  const sent = fetch ? timesOf(fetch)?.sent : undefined;
  return sent === undefined || sent < step.done;
}

/**
 * A session's grants, each with the read that first gave it: a later session's call answered after
 * that read was sent may have used it, whatever the session read again later (DESIGN, "The model").
 */
function heldGrants(state: Live): Map<string, Exchange | undefined> {
  return new Map([...state.model.grants].map((t) => [t, state.heldSince.get(t)]));
}

/** Sessions by name (the same order in every run). */
function byLabel(a: McpSession, b: McpSession): number {
  return a.label < b.label ? -1 : a.label > b.label ? 1 : 0;
}

/**
 * Per tool, over every read that named it: a description missing from every read, or found only
 * one level down (not under its own key), breaks the answer's keys (criterion 4); one that comes
 * alone but not beside others breaks ?tools=a,b (3), or beside an unknown name is spoiled by it (9).
 */
function presenceBreaks(presence: Map<string, Array<{ presence: 'keyed' | 'wrapped' | 'absent'; items: string[]; unknown: string[]; ex: Exchange }>>): RuleBreak[] {
  const breaks: RuleBreak[] = [];
  for (const [tool, reads] of presence) {
    const missing = reads.filter((r) => r.presence === 'absent');
    const misplaced = reads.find((r) => r.presence === 'wrapped');
    if (misplaced || (missing.length && missing.length === reads.length)) {
      breaks.push({ check: CRITERION.answer, code: 'missing-entry', args: { tool }, level: 'fail', tool, proof: [(misplaced ?? missing[0])!.ex] });
    }
    if (missing.length === reads.length) continue;
    for (const r of missing) {
      const keys = Object.keys(parsedKeys(r.ex));
      if (r.unknown.length) breaks.push({ check: CRITERION.unknown, code: 'spoils-known', args: { tool, name: r.unknown[0], problem: `no description of '${tool}' came` }, level: 'fail', tool, proof: [r.ex] });
      else if (r.items.length === 1) breaks.push({ check: CRITERION.names, code: 'single-fetch-no-entry', args: { tool, keys: keys.length ? keys : 'none' }, level: 'fail', tool, proof: [r.ex] });
      else breaks.push({ check: CRITERION.names, code: 'multi-fetch-failed', args: { count: r.items.length, sample: r.items.slice(0, 3).join(','), problem: `returned no description for '${tool}'` }, level: 'fail', tool, proof: [r.ex] });
    }
  }
  return breaks;
}

function parsedKeys(ex: Exchange): Record<string, unknown> {
  const value = resourceJson(ex).value;
  return isPlainObject(value) ? value : {};
}
