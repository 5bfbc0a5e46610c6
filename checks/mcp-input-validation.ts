import { defineLiveCheck } from '../src/run/check.js';
import type { LiveContext } from '../src/run/context.js';
import { classifyCall, invalidArguments, reachedTool, rejectsArguments, violationOf } from '../src/protocol/calls.js';
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
    // The calls go several at a time; what they say is reported in the tools' order.
    const calls = await mapLimit(tools, AT_ONCE, async (name) => {
      const invalid = invalidArguments(ctx.tools.schema(name));
      return { invalid, ...(invalid ? await callOnce(ctx, name, Object.keys(invalid.args).length === 0) : {}) };
    });
    // A tool this check did not call is judged at the end of the run by any call of it with arguments its schema
    // refuses that another part of the run made (a phase, a check, the exploration): the run's evidence, not a
    // second call.
    ctx.atEnd(async () => {
      const tally = { rejected: 0, tested: 0, untested: [] as string[] };
      for (const [i, name] of tools.entries()) {
        const { invalid, ex, why } = calls[i];
        const earlier = ex ? undefined : refusedElsewhere(ctx, name);
        if (earlier) judge(ctx, name, earlier.violation, earlier.exchange, tally);
        else if (!invalid) {
          ctx.info('not-derivable', { tool: name }, { location: { tool: name } });
          tally.untested.push(`'${name}': its schema gives nothing to break`);
        } else if (!ex) {
          ctx.info('not-called', { tool: name, why: why ?? '' }, { location: { tool: name } });
          tally.untested.push(`'${name}' not called (${why ?? ''})`);
        } else judge(ctx, name, invalid.violation, ex, tally);
      }
      if (tally.rejected) ctx.info('rejected', { count: tally.rejected });
      if (!tally.tested)
        ctx.skip('nothing-tested', { why: tally.untested.length ? tally.untested.join('; ') : 'no tool to test' });
    });
  },
});

type Ctx = LiveContext<keyof typeof messages>;

/** A call of the run, let through, whose arguments the tool's schema refuses: the first that got an answer. */
function refusedElsewhere(ctx: Ctx, name: string): { exchange: Exchange; violation: string } | undefined {
  const schema = ctx.tools.schema(name);
  for (const call of ctx.callsOfRun(name)) {
    if (call.outcome.kind !== 'authorized' || call.nearName) continue;
    const violation = call.violation ?? violationOf(call.args, schema);
    if (violation) return { exchange: call.exchange, violation };
  }
  return undefined;
}

/** What one call with arguments the schema refuses shows: refused as it should be, or run without checking them. */
function judge(
  ctx: Ctx,
  name: string,
  violation: string,
  ex: Exchange,
  tally: { rejected: number; tested: number; untested: string[] },
): void {
  const location = { tool: name };
  if (!ex.noResponse || reachedTool(ex)) tally.tested++;
  const args = { tool: name, violation };
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
    tally.untested.push(`'${name}' gave no answer`);
  } else if (outcome.kind === 'refused') {
    ctx.info('not-authorized', { tool: name }, { location });
    tally.untested.push(`'${name}' was refused as not fetched`);
  } else if (failed && rejectsArguments(ex, ctx.tools.schema(name))) {
    if (error) ctx.warn('protocol-error', { ...args, code: String(error.code) }, { location, transcript: [ex] });
    else tally.rejected++;
  } else if (failed) ctx.fail('not-validated', { ...args, said: said(ex) }, { location, transcript: [ex] });
  else ctx.fail('accepted-invalid', args, { location, transcript: [ex] });
}

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
async function callOnce(ctx: Ctx, name: string, emptyRefused: boolean): Promise<{ ex?: Exchange; why?: string }> {
  if (ctx.facts.descriptions.resource) {
    const ex = await ctx.call(ctx.probe(), name, { intent: 'invalid-arguments' });
    if (ex) return { ex };
    // Those arguments already ran once (a tool that may change data is not sent them again): that run is the answer.
    const earlier = ctx.notCalledBecause(name) === 'ran-before' ? ctx.earlierRun(name) : undefined;
    return earlier ? { ex: earlier } : { why: ctx.whyNotCalled(name) };
  }
  const earlier = ctx.facts.unfetched.calls.find((c) => c.tool === name && Object.keys(c.args).length === 0);
  if (earlier && emptyRefused) return { ex: earlier.exchange };
  return {
    why: 'the server has no tool_descriptions resource, so no call is made for this check, and the run made none of it with arguments its schema refuses',
  };
}
