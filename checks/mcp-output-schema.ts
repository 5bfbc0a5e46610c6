import { defineLiveCheck } from '../src/run/check.js';
import { mapLimit } from '../src/util/concurrency.js';
import { isPlainObject } from '../src/protocol/payload.js';
import { compileSchema, describeErrors } from '../src/util/schema.js';
import { clip } from '../src/util/text.js';
import type { Exchange } from '../src/transport/types.js';

/** Calls in flight at once. */
const AT_ONCE = 8;

const messages = {
  'no-output-schema': 'No tool declares an outputSchema in tools/list.',
  'nothing-checked': 'No result of the {count|tool} with an outputSchema could be checked: {why}.',
  'output-schema-invalid': {
    message: "The outputSchema of '{tool}' is not a valid JSON Schema: {problem}.",
    hint: 'Fix the outputSchema.',
  },
  'not-called-safe-calls': "'{tool}' was not called (--safe-calls, and it is not marked read-only).",
  'not-called': "'{tool}' was not called to check its output: {why}.",
  'no-arguments':
    "'{tool}' was not called: it has no example arguments, and its inputSchema requires {required}, so a call could only fail.",
  'no-successful-result':
    "'{tool}' returned no successful result with its example arguments, so its output could not be checked.",
  'no-structured-content': {
    message: "'{tool}' declares an outputSchema but its result has no structuredContent object.",
    hint: 'Return "structuredContent" matching the outputSchema.',
  },
  'structured-content-invalid': {
    message: "The structuredContent of '{tool}' does not conform to its outputSchema: {problems}.",
    hint: 'Make the result match the outputSchema, or correct the schema.',
  },
  'no-text-content': {
    message:
      "'{tool}' returns structuredContent without the serialized JSON in a text content block (SHOULD, for older clients).",
    hint: 'Add { "type": "text", "text": JSON.stringify(structuredContent) } to content.',
  },
} as const;

/** The required properties of a schema. */
function requiredOf(schema: unknown): string[] {
  return isPlainObject(schema) && Array.isArray(schema.required)
    ? schema.required.filter((r): r is string => typeof r === 'string')
    : [];
}

export default defineLiveCheck({
  id: 'mcp-output-schema',
  title: 'A tool with an outputSchema returns structuredContent that conforms to it',
  spec: {
    doc: 'mcp-tools',
    section: 'Output Schema',
    level: 'MUST',
    requirements: ['MCP-output-a', 'MCP-output-b', 'MCP-result-a'],
  },
  needs: 'session',
  reads: ['unfetched-calls', 'descriptions'],
  messages,
  async run(ctx) {
    const { discovery } = ctx;
    const withSchema = discovery.tools.filter((t) => typeof t.name === 'string' && t.outputSchema !== undefined);
    if (!withSchema.length) ctx.skip('no-output-schema');
    // The probe session: by now it has fetched every description (so it may call every tool).
    const session = ctx.probe();
    const base = ctx.facts.descriptions.resource?.uri;
    const fullDescriptions = ctx.facts.descriptions.full;
    let checked = 0;
    /** Why each tool's output was not checked, for the skip's one line. */
    const unchecked: string[] = [];
    // The calls go several at a time (the probe holds every grant); what they say is reported in order.
    const called = await mapLimit(withSchema, AT_ONCE, async (tool) => {
      const name = tool.name as string;
      if (ctx.tools.barredBySafeCalls(name)) return undefined;
      // Without the resource every call is unfetched: a call made before anything was fetched is reused.
      const made = base
        ? await ctx.call(session, name, { entry: fullDescriptions.get(name) })
        : (ctx.facts.unfetched.calls.find((c) => c.tool === name)?.exchange ?? (await ctx.call(session, name)));
      // A tool that may change data runs once with the same arguments: that run's result is the one to check.
      return made ?? (ctx.notCalledBecause(name) === 'ran-before' ? ctx.earlierRun(name) : undefined);
    });
    for (const [i, tool] of withSchema.entries()) {
      const name = tool.name as string;
      const location = { tool: name };
      const compiled = compileSchema(tool.outputSchema);
      if (compiled.problem) {
        ctx.fail(
          'output-schema-invalid',
          { tool: name, problem: clip(compiled.problem, 200) },
          { location, transcript: discovery.toolsExchanges },
        );
        unchecked.push(`'${name}' has an outputSchema that is no valid JSON Schema`);
        continue;
      }
      if (ctx.tools.barredBySafeCalls(name)) {
        ctx.info('not-called-safe-calls', { tool: name }, { location });
        unchecked.push(`'${name}' not called (--safe-calls)`);
        continue;
      }
      // The read that returned its description goes with the call into the proof.
      const read = ctx.facts.descriptions.reads.get(name);
      const fetched: Exchange[] = read ? [read] : [];
      const ex = called[i];
      if (!ex) {
        const why = ctx.whyNotCalled(name) || (ctx.facts.unfetched.notCalled.find((n) => n.tool === name)?.why ?? '');
        ctx.info('not-called', { tool: name, why }, { location });
        unchecked.push(`'${name}' not called (${why})`);
        continue;
      }
      const required = requiredOf(fullDescriptions.get(name)?.inputSchema ?? tool.inputSchema);
      if (
        required.length &&
        Object.keys((ex.request.params as { arguments?: object } | undefined)?.arguments ?? {}).length === 0
      ) {
        ctx.info('no-arguments', { tool: name, required }, { location });
        unchecked.push(`'${name}' has no example arguments`);
        continue;
      }
      const result = ex.response?.result;
      if (!isPlainObject(result) || result.isError === true) {
        ctx.info('no-successful-result', { tool: name }, { location });
        unchecked.push(
          `'${name}' returned no successful result${ex.noResponse ? ` (no answer: ${ex.note ?? ex.noResponse})` : ''}`,
        );
        continue;
      }
      const transcript = [...fetched, ex];
      checked++;
      if (!isPlainObject(result.structuredContent)) {
        ctx.fail('no-structured-content', { tool: name }, { location, transcript });
        continue;
      }
      if (compiled.validate && !compiled.validate(result.structuredContent)) {
        ctx.fail(
          'structured-content-invalid',
          { tool: name, problems: describeErrors(compiled.validate.errors).slice(0, 3).join('; ') },
          { location, transcript },
        );
      }
      const content = Array.isArray(result.content) ? result.content : [];
      if (!content.some((c) => isPlainObject(c) && c.type === 'text')) {
        ctx.warn('no-text-content', { tool: name }, { location, transcript });
      }
    }
    if (checked === 0 && !ctx.findings.some((f) => f.level === 'error'))
      ctx.skip('nothing-checked', {
        count: withSchema.length,
        why: unchecked.length ? unchecked.join('; ') : 'see the findings of this check',
      });
  },
});
