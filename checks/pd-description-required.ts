import { defineLiveCheck } from '../src/run/check.js';
import { TOOL_DESCRIPTION_REQUIRED } from '../src/protocol/calls.js';

const HINT = `Refuse the call with {"error":{"code":"${TOOL_DESCRIPTION_REQUIRED}","message":…,"resource_uri":"<resource>?tools=<name>"}} until the description was fetched in this session (if pd-session-isolation fails too, grants leak between sessions).`;

/** What the model expects of a call of a tool that was not fetched in its session (src/model/call.ts judges every such call of the run). */
const messages = {
  'no-response': { message: "Calling '{tool}' before fetching its description got no response ({note}).", hint: HINT },
  'invalid-error-code': { message: "Calling '{tool}' unfetched: {problem}. Put the string code in error.data.code and use an integer error.code.", hint: HINT },
  'ran-unfetched': { message: "Calling '{tool}' before fetching its description was let through (it ran, or reached its own argument check), although its description had not been fetched in this session.", hint: HINT },
  'other-code': { message: "Calling '{tool}' before fetching its description was refused with {code} instead.", hint: HINT },
  'error-without-code': { message: "Calling '{tool}' before fetching its description failed with a JSON-RPC error without the code: {error}.", hint: HINT },
  'tool-error-without-code': { message: "Calling '{tool}' before fetching its description failed with a tool error that does not carry the code.", hint: HINT },
  'only-in-text': { message: `Calling '{tool}' unfetched mentions ${TOOL_DESCRIPTION_REQUIRED} only in message text, where clients cannot read it as a code.`, hint: HINT },
  'no-resource-uri': { message: `The ${TOOL_DESCRIPTION_REQUIRED} error for '{tool}' has no resource_uri telling the client what to fetch (§6.2).`, hint: HINT },
  'wrong-resource-uri': { message: `The ${TOOL_DESCRIPTION_REQUIRED} error for '{tool}' has resource_uri '{uri}', but fetching this tool means '{expected}'.`, hint: HINT },
  'no-message': { message: `The ${TOOL_DESCRIPTION_REQUIRED} error for '{tool}' has no message (§6.2 shows one).`, hint: "Add \"message\": \"Tool '{tool}' requires fetching its description before use.\"" },
  'no-is-error': { message: "The refusal of '{tool}' is a tool result without isError: true; MCP marks failed tool calls with isError.", hint: 'Set "isError": true on the refusal result.' },
  'refusals-form': 'Refusals signalled as: {forms}.',
  'sampled': 'Called unfetched: the first {tested} of {total} tools (read-only ones first).',
  'not-called': 'Not called unfetched: {tools} ({why}).',
  'none-callable': 'No tool could be called unfetched without risk, so this criterion could not be tested (the lines above say why for each; --allow-destructive calls them).',
} as const;

export default defineLiveCheck({
  id: 'pd-description-required',
  title: 'Calling a tool before fetching its description fails with TOOL_DESCRIPTION_REQUIRED',
  spec: {
    doc: 'progressive-disclosure', section: '6.2', level: 'MUST', criterion: 7,
    requirements: ['PD-5.1-c', 'PD-6.2-a'],
  },
  needs: 'session',
  // Its calls are the run's own, made before anything was fetched anywhere (src/run/phases.ts).
  reads: ['unfetched-calls'],
  sessionUse: "the run's clean session (nothing is ever fetched in it), in the phases before the checks: read-only tools are called before anything is fetched anywhere in the run, the others with arguments their full schema refuses",
  messages,
  async run(ctx) {
    ctx.toolsToCallOrStop();
    const { tried, total, calls, notCalled, unavailable } = ctx.facts.unfetched;
    if (unavailable) ctx.fail('session-unavailable', { reason: unavailable });
    if (total > tried.length) ctx.info('sampled', { tested: tried.length, total });
    // Each call is judged by the model with the run's other exchanges (src/model/judge.ts); here,
    // what was not called and why, per tool, from the run's ledger.
    const reasons = new Map<string, string[]>();
    for (const n of notCalled) if (!reasons.get(n.why)?.includes(n.tool)) reasons.set(n.why, [...(reasons.get(n.why) ?? []), n.tool]);
    for (const [why, tools] of reasons) ctx.info('not-called', { tools, why });
    if (!unavailable && tried.length && !calls.length) ctx.skip('none-callable');
  },
});
