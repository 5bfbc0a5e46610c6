import { defineLiveCheck } from '../src/run/check.js';
import { MODEL_MESSAGES } from '../src/model/rules.js';

/**
 * What the model expects of a call of a tool that was not fetched in its session (src/model/call.ts judges every such
 * call of the run).
 */
const messages = {
  ...MODEL_MESSAGES['pd-description-required'],
  sampled: 'Called unfetched: the first {tested} of {total} tools (read-only ones first).',
  'not-called': 'Not called unfetched: {tools} ({why}).',
  'none-callable': {
    message: 'Not proven: no tool could be called unfetched without risk, so no refusal was seen: {why}.',
    hint: 'Mark a tool that is safe to call readOnlyHint: true (or dashdash operationType: "read"), or name one with --safe-tool NAME (or run with --allow-destructive against a test instance).',
  },
} as const;

export default defineLiveCheck({
  id: 'pd-description-required',
  title: 'Calling a tool before fetching its description fails with TOOL_DESCRIPTION_REQUIRED',
  spec: {
    doc: 'progressive-disclosure',
    section: '6.2',
    level: 'MUST',
    criterion: 7,
    requirements: ['PD-5.1-c', 'PD-6.2-a'],
  },
  needs: 'session',
  // Its calls are the run's own, made before anything was fetched anywhere (src/run/phases.ts).
  reads: ['unfetched-calls'],
  provenIn: 'clean',
  sessionUse:
    "the run's clean session (nothing is ever fetched in it), in the phases before the checks: read-only tools are called before anything is fetched anywhere in the run, the others with arguments their full schema refuses",
  messages,
  async run(ctx) {
    ctx.toolsToCallOrStop();
    const { tried, total, calls, notCalled, unavailable, slowStart } = ctx.facts.unfetched;
    // A clean session that only started too slowly proves nothing: not proven, never failed.
    if (unavailable && slowStart) return ctx.skip('slow-start', { reason: unavailable.replace(/^the server /, '') });
    if (unavailable) ctx.fail('session-unavailable', { reason: unavailable });
    if (total > tried.length) ctx.info('sampled', { tested: tried.length, total });
    // Each call is judged by the model with the run's other exchanges (src/model/judge.ts); here,
    // what was not called and why, per tool, from the run's ledger.
    const reasons = new Map<string, string[]>();
    for (const n of notCalled)
      if (!reasons.get(n.why)?.includes(n.tool)) reasons.set(n.why, [...(reasons.get(n.why) ?? []), n.tool]);
    // Said once the run is over: a tool another part of the run called unfetched is not among them.
    ctx.atEnd(async () => {
      for (const [why, tools] of reasons) {
        const never = tools.filter((t) => !ctx.calledUnfetched(t));
        if (never.length) ctx.info('not-called', { tools: never, why });
      }
    });
    // Without a call there is no refusal to prove it (the model's proof, from every session of the run).
    if (!unavailable && tried.length && !calls.length)
      ctx.unprovenBecause('none-callable', {
        why:
          [...reasons].map(([why, tools]) => `${tools.map((t) => `'${t}'`).join(', ')}: ${why}`).join('; ') ||
          'no tool to call',
      });
    ctx.unprovenIfSilent(
      'every call made before its description was fetched',
      calls.map((c) => c.exchange),
    );
  },
});
