import { defineLiveCheck } from '../src/run/check.js';
import type { LiveContext } from '../src/run/context.js';
import { classifyCall, invalidArguments, reachedTool, rejectsArguments } from '../src/protocol/calls.js';
import { clip, inlineJson } from '../src/util/text.js';
import { isPlainObject } from '../src/protocol/payload.js';
import type { Exchange } from '../src/transport/types.js';
import { mapLimit } from '../src/util/concurrency.js';

/** Tools tested, at most: the rule is the same for every tool. */
const SAMPLE = 50;
/** Calls in flight at once. */
const AT_ONCE = 8;

const messages = {
  'accepted-invalid': {
    message:
      "'{tool}' was called with arguments that break its inputSchema ({violation}) and succeeded: servers MUST validate tool inputs (MCP tools, Security).",
    hint: 'Validate the arguments against the inputSchema before running the tool, and answer a tool result with isError: true that says what is wrong.',
  },
  'protocol-error': {
    message:
      "'{tool}' rejected arguments that break its inputSchema ({violation}) with the JSON-RPC error {code}, not with a tool result with isError: true; MCP reports input-validation errors as results, so that the model sees them and can correct the call.",
    hint: 'Return { "isError": true, "content": [{ "type": "text", "text": "<what is wrong>" }] } instead of throwing a protocol error.',
  },
  'not-validated': {
    message:
      "'{tool}' was called with arguments that break its inputSchema ({violation}) and failed at its work instead of refusing them ({said}): it ran without checking its arguments (MCP tools, Security: servers MUST validate tool inputs).",
    hint: 'Validate the arguments against the inputSchema before doing any work, and answer a tool result with isError: true that names what is wrong.',
  },
  'not-derivable':
    "'{tool}' was not tested: its inputSchema has no required property, no typed one, and allows any other, so no call can be built that surely breaks it.",
  'not-called': "'{tool}' was not called with invalid arguments: {why}.",
  'not-authorized':
    "'{tool}' refused the call as not yet fetched, so input validation could not be seen (authorization is criterion 6's business).",
  'nothing-tested': 'No tool was called with arguments that break its inputSchema: {why}.',
  rejected: '{count|tool} rejected arguments that break their inputSchema with a tool result with isError: true.',
  sampled: 'The first {tested} of {total} tools were tested (the rule is the same for each).',
} as const;

export default defineLiveCheck({
  id: 'mcp-input-validation',
  title: 'A call whose arguments break the inputSchema is refused with a tool result with isError: true',
  spec: { doc: 'mcp-tools', section: 'Security', level: 'MUST', requirements: ['MCP-sec-a', 'MCP-err-b'] },
  needs: 'session',
  reads: ['unfetched-calls', 'descriptions'],
  sessionUse:
    'the probe, which holds every grant once the descriptions were fetched: each tool is called once with arguments its schema forbids',
  messages,
  async run(ctx) {
    const names = ctx.toolsToCallOrStop();
    const tools = names.slice(0, SAMPLE);
    if (names.length > SAMPLE) ctx.info('sampled', { tested: SAMPLE, total: names.length });
    let rejected = 0;
    let tested = 0;
    /** Why each tool was not tested, for the skip's one line. */
    const untested: string[] = [];
    // The calls go several at a time; what they say is reported in the tools' order.
    const calls = await mapLimit(tools, AT_ONCE, async (name) => {
      const invalid = invalidArguments(ctx.tools.schema(name));
      return { invalid, ...(invalid ? await callOnce(ctx, name, Object.keys(invalid.args).length === 0) : {}) };
    });
    for (const [i, name] of tools.entries()) {
      const location = { tool: name };
      const { invalid, ex, why } = calls[i];
      if (!invalid) {
        ctx.info('not-derivable', { tool: name }, { location });
        untested.push(`'${name}': its schema gives nothing to break`);
        continue;
      }
      if (!ex) {
        ctx.info('not-called', { tool: name, why: why ?? '' }, { location });
        untested.push(`'${name}' not called (${why ?? ''})`);
        continue;
      }
      if (!ex.noResponse || reachedTool(ex)) tested++;
      const args = { tool: name, violation: invalid.violation };
      const outcome = classifyCall(ex);
      const error = ex.response?.error as { code?: unknown; message?: unknown } | undefined;
      const result = ex.response?.result;
      const failed = error !== undefined || (isPlainObject(result) && result.isError === true);
      // Read for what it says: only an answer that refuses the arguments shows they were checked.
      if (outcome.kind === 'no-response') {
        ctx.info(
          'inconclusive',
          { subject: `Calling '${name}' with arguments its inputSchema refuses`, note: outcome.note },
          { location, transcript: [ex] },
        );
        untested.push(`'${name}' gave no answer`);
      } else if (outcome.kind === 'refused') {
        ctx.info('not-authorized', { tool: name }, { location });
        untested.push(`'${name}' was refused as not fetched`);
      } else if (failed && rejectsArguments(ex, ctx.tools.schema(name))) {
        if (error) ctx.warn('protocol-error', { ...args, code: String(error.code) }, { location, transcript: [ex] });
        else rejected++;
      } else if (failed) ctx.fail('not-validated', { ...args, said: said(ex) }, { location, transcript: [ex] });
      else ctx.fail('accepted-invalid', args, { location, transcript: [ex] });
    }
    if (rejected) ctx.info('rejected', { count: rejected });
    if (!tested) ctx.skip('nothing-tested', { why: untested.length ? untested.join('; ') : 'no tool to test' });
  },
});

/** What a failed answer said, in a few words. */
function said(ex: Exchange): string {
  const error = ex.response?.error as { code?: unknown; message?: unknown } | undefined;
  if (error)
    return `JSON-RPC error ${String(error.code)}: ${clip((typeof error.message === 'string' ? error.message : inlineJson(error)).replace(/\s+/g, ' '), 120)}`;
  const content = (ex.response?.result as { content?: Array<{ text?: unknown }> } | undefined)?.content;
  const text = Array.isArray(content)
    ? content
        .map((c) => (typeof c?.text === 'string' ? c.text : ''))
        .join(' ')
        .trim()
    : '';
  return `a tool error: ${clip((text || inlineJson(ex.response?.result)).replace(/\s+/g, ' '), 120)}`;
}

/**
 * The call, made once, through the run's door. A server without the resource has no
 * authorization, so a first run against it stays short and harmless: no new call is made there,
 * and the `{}` calls made before anything was fetched (to tools whose schema requires a
 * property) are judged instead.
 */
async function callOnce(
  ctx: LiveContext<keyof typeof messages>,
  name: string,
  emptyRefused: boolean,
): Promise<{ ex?: Exchange; why?: string }> {
  if (ctx.facts.descriptions.resource) {
    const ex = await ctx.call(ctx.probe(), name, { intent: 'invalid-arguments' });
    if (ex) return { ex };
    // Those arguments already ran once (a tool that may change data is not sent them again): that run is the answer.
    const earlier = ctx.notCalledBecause(name) === 'ran-before' ? ctx.earlierRun(name) : undefined;
    return earlier ? { ex: earlier } : { why: ctx.whyNotCalled(name) };
  }
  const earlier = ctx.facts.unfetched.calls.find((c) => c.tool === name && Object.keys(c.args).length === 0);
  if (earlier && emptyRefused) return { ex: earlier.exchange };
  return { why: 'the server has no tool_descriptions resource, so only the {} calls made already are judged' };
}
