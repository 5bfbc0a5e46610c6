import { defineLiveCheck } from '../src/check.js';
import { TOOL_DESCRIPTION_REQUIRED } from '../src/pd/calls.js';
import { anySignalledCode, findSignalledError, invalidErrorCode } from '../src/pd/errors.js';
import { descriptionsUri, isToolDescriptionsUri, requestedTools, sameUri } from '../src/pd/uri.js';
import { inlineJson } from '../src/text.js';

/** Past this many failing tools the rest are summarised in one finding. */
const MAX_FINDINGS = 20;
/** Tools called unfetched, at most: on a server with thousands, the refusal of this many proves the rule. */
const SAMPLE = 500;

const HINT = `Refuse the call with {"error":{"code":"${TOOL_DESCRIPTION_REQUIRED}","message":…,"resource_uri":"<resource>?tools=<name>"}} until the description was fetched in this session (if pd-session-isolation fails too, grants leak between sessions).`;

const messages = {
  'no-response': { message: "Calling '{tool}' before fetching its description got no response ({note}).", hint: HINT },
  'invalid-error-code': { message: "Calling '{tool}' unfetched: {problem}. Put the string code in error.data.code and use an integer error.code.", hint: HINT },
  'ran-unfetched': { message: "Calling '{tool}' before fetching its description ran, although its description had not been fetched in this session.", hint: HINT },
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
  'not-called': "Not called: {tools}. '{ran}' already ran although its description had not been fetched, which proves this criterion failed; calling more tools unfetched would prove nothing new and could change data.",
} as const;

export default defineLiveCheck({
  id: 'pd-description-required',
  title: 'Calling a tool before fetching its description fails with TOOL_DESCRIPTION_REQUIRED',
  spec: {
    doc: 'progressive-disclosure', section: '6.2', level: 'MUST', criterion: 7,
    requirements: ['PD-5.1-c', 'PD-6.2-a'],
  },
  needs: 'session',
  runs: 'before-any-fetch',
  sessionUse: 'the probe, first, while nothing has been fetched anywhere in the run: it calls tools that were never fetched',
  messages,
  async run(ctx) {
    // Read-only tools first, destructive ones last: the first unfetched call that runs ends the calls.
    const all = ctx.calls.order(ctx.toolsToCallOrStop());
    const tools = all.slice(0, SAMPLE);
    if (all.length > SAMPLE) ctx.info('sampled', { tested: SAMPLE, total: all.length });
    const listed = ctx.discovery.descriptionsResource?.uri;
    // The probe session: nothing has been fetched in it, or anywhere, yet (this check runs first).
    const session = ctx.reader();
    const forms = new Set<string>();
    const notCalled: string[] = [];
    const { fail, done } = ctx.capped(MAX_FINDINGS);

    for (const name of tools) {
      if (ctx.calls.ranUnfetched) {
        notCalled.push(name);
        ctx.calls.skip(name, `'${ctx.calls.ranUnfetched}' already ran unfetched`);
        continue;
      }
      const ex = await session.callTool(name, ctx.calls.unfetchedArguments());
      ctx.calls.recordUnfetched(name, ex);
      const extras = { location: { tool: name }, transcript: [ex] };
      if (ex.noResponse) {
        fail('no-response', { tool: name, note: ex.note ?? ex.noResponse }, extras);
        continue;
      }
      const bad = invalidErrorCode(ex);
      if (bad) {
        fail('invalid-error-code', { tool: name, problem: bad }, extras);
        continue;
      }
      const signal = findSignalledError(ex, TOOL_DESCRIPTION_REQUIRED);
      if (!signal) {
        const other = anySignalledCode(ex);
        if (other) fail('other-code', { tool: name, code: other }, extras);
        else if (ex.response?.error) fail('error-without-code', { tool: name, error: inlineJson(ex.response.error, 160) }, extras);
        else if ((ex.response?.result as { isError?: boolean } | undefined)?.isError) fail('tool-error-without-code', { tool: name }, extras);
        else fail('ran-unfetched', { tool: name }, extras);
        continue;
      }
      if (!signal.accepted) {
        fail('only-in-text', { tool: name }, extras);
        continue;
      }
      forms.add(signal.form + (signal.form === 'JSON text in a successful result' || signal.form === 'structuredContent of a tool result' ? (signal.isError ? ' (isError: true)' : ' (no isError)') : ''));
      const uri = signal.payload.resource_uri;
      if (typeof uri !== 'string') fail('no-resource-uri', { tool: name }, extras);
      else if (listed && !sameUri(uri, descriptionsUri(listed, [name]))) fail('wrong-resource-uri', { tool: name, uri, expected: descriptionsUri(listed, [name]) }, extras);
      // Unlisted (pd-resource-listed's finding): it must still name the resource and this tool.
      else if (!listed && !(isToolDescriptionsUri(uri) && (requestedTools(uri) ?? []).join(',') === name)) fail('wrong-resource-uri', { tool: name, uri, expected: `<scheme>:…/tool_descriptions?tools=${name}` }, extras);
      if (typeof signal.payload.message !== 'string' || !signal.payload.message.trim()) ctx.warn('no-message', { tool: name }, extras);
      if (signal.isError === false) ctx.warn('no-is-error', { tool: name }, extras);
    }
    done();
    if (forms.size) ctx.info('refusals-form', { forms: [...forms].join(', ') });
    if (notCalled.length) ctx.info('not-called', { tools: notCalled, ran: ctx.calls.ranUnfetched });
  },
});
