import { defineLiveCheck } from '../src/run/check.js';
import { MODEL_MESSAGES } from '../src/model/rules.js';
import { classifyCall, MISSING_TOOL_SELECTION } from '../src/protocol/calls.js';
import { findSignalledError } from '../src/protocol/errors.js';
import { isPlainObject, resourceJson } from '../src/protocol/payload.js';
import { DESCRIPTIONS_TOOL, MIRRORS_KEY } from '../src/protocol/tool-form.js';
import { descriptionsUri, sameUri } from '../src/protocol/uri.js';
import type { McpSession } from '../src/transport/session.js';
import type { Exchange } from '../src/transport/types.js';
import { inlineJson } from '../src/util/text.js';

/** Names in the oversized selection: more than a server that limits fetches takes at once. */
const OVERSIZED = 100;
const UNKNOWN = 'pd_check_no_such_tool';
/** What the tool form's minimal description must convey: that it fetches descriptions, and when to call it. */
const SAYS_WHAT = /descri/i;
const SAYS_WHEN = /\b(first|before|until|required|must|then)\b/i;

const messages = {
  ...MODEL_MESSAGES['pd-descriptions-tool'],
  'no-tool-form': `No tool is marked as the tool form of the tool_descriptions resource (_meta "${MIRRORS_KEY}"): a client whose model only calls tools cannot fetch a description here (see the verdict's reach line).`,
  'wrong-resource': {
    message:
      "The tool form '{tool}' says it mirrors {mirrors}, but the server's tool_descriptions resource is {resource}.",
    hint: `Give "_meta": { "${MIRRORS_KEY}": "<the resource's URI>" }.`,
  },
  'not-read-only': {
    message:
      "The tool form '{tool}' is not annotated readOnlyHint: true (or says destructiveHint: true): clients ask before calling such tools, and the checker cannot call it safely.",
    hint: 'Annotate it { "readOnlyHint": true, "destructiveHint": false }: it only returns descriptions.',
  },
  'description-unclear': {
    message:
      "The tool form's minimal description does not say that it returns tool descriptions and that it is to be called first: {description}.",
    hint: 'Say what it returns and when: e.g. "Returns the full descriptions of the tools you name; call it first: every other tool is refused until its description was fetched."',
  },
  gated: {
    message:
      "Calling the tool form '{tool}' before anything was fetched was refused: it is how a tools-only client fetches, so it must be callable unfetched.",
    hint: 'Exempt the tool form (and only it) from the check that refuses unfetched calls.',
  },
  'answers-differ': {
    message:
      "For {selection}, the tool form '{tool}' answered {viaTool}, where a read of the resource answered {viaRead}: it must answer what the read answers.",
    hint: 'Answer the tool form through the same code as the resource read: the same JSON, the same errors.',
  },
  'not-tested': "The tool form's grants were not tested: {why}.",
  mirrored:
    "The tool form '{tool}' answered {count|selection} as the resource did (its grants are judged with every call of the run).",
} as const;

/**
 * An answer, as two answers are compared: a JSON document (keys sorted), a refusal (a JSON-RPC
 * error: its code is the era's business, 2026-07-28 renumbers a read's), or no answer.
 */
function answerOf(ex: Exchange): string {
  if (ex.noResponse) return 'no answer';
  const error = ex.response?.error;
  if (isPlainObject(error)) return 'a JSON-RPC error';
  const missing = findSignalledError(ex, MISSING_TOOL_SELECTION);
  if (missing) return MISSING_TOOL_SELECTION;
  const json = resourceJson(ex);
  return json.value === undefined ? `no JSON (${json.problem ?? 'empty'})` : sortedJson(json.value);
}

function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    isPlainObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

export default defineLiveCheck({
  id: 'pd-descriptions-tool',
  title:
    'The tool form of the resource, when a server marks one, answers and grants as the resource does, unfetched, read-only',
  spec: { doc: 'mcp-pd-check', section: 'tool form', level: 'MUST', requirements: [] },
  needs: 'session',
  reads: ['unfetched-calls', 'descriptions'],
  // A session of its own only for a server that marks a tool form (most do not).
  opens: (o) => (o.toolForm === false ? 0 : 1),
  turn: 2,
  sessionUse: (o) =>
    `when the server marks a tool form: ${o.shared ? 'the shared session P, where nothing was fetched yet' : 'a new session'}, the tool form called before anything is fetched, then one tool called (it was described) and another (it was not)`,
  messages,
  async run(ctx) {
    // Without the resource there is nothing to mirror (said once, with the other criteria it leaves untested).
    const base = ctx.resourceUriOrSkip('the tool form of the resource');
    const form = ctx.discovery.descriptionsTool ?? ctx.skip('no-tool-form');
    const tool = form.name;
    const entry = ctx.discovery.tools.find((t) => t.name === tool)!;
    const location = { tool };
    if (!sameUri(form.mirrors, base))
      ctx.fail('wrong-resource', { tool, mirrors: form.mirrors, resource: base }, { location });
    const annotations = isPlainObject(entry.annotations) ? entry.annotations : {};
    if (annotations.readOnlyHint !== true || annotations.destructiveHint === true)
      ctx.fail('not-read-only', { tool }, { location, transcript: ctx.discovery.toolsExchanges });
    const description = typeof entry.description === 'string' ? entry.description : '';
    if (!SAYS_WHAT.test(description) || !SAYS_WHEN.test(description))
      ctx.warn('description-unclear', { description: JSON.stringify(description) }, { location });

    // Unfetched, in a session of its own, then what it granted: the described tool is let through, another refused (the
    // model judges both).
    const [a, b] = ctx.toolsToCallOrStop().filter((t) => t !== tool);
    const session = await ctx.session();
    const first = await ctx.readThroughTool(session, a ? [a] : [DESCRIPTIONS_TOOL]);
    if (classifyCall(first).kind === 'refused') ctx.fail('gated', { tool }, { location, transcript: [first] });
    if (a) await Promise.all([ctx.call(session, a), ...(b ? [ctx.call(session, b)] : [])]);
    else ctx.info('not-tested', { why: 'no tool may be called here' });

    // The same answers as the resource, selection by selection (the probe holds every grant: answers do not depend on
    // state).
    const names = ctx.discovery.toolNames.filter((n) => !n.includes(','));
    const selections: Array<string[] | undefined> = [
      [names[0]],
      ...(names.length > 1 ? [[names[0], names[1]]] : []),
      [UNKNOWN],
      [names[0], UNKNOWN],
      undefined,
      [names[0], ...Array.from({ length: OVERSIZED }, (_, k) => `${UNKNOWN}_${k + 1}`)],
    ];
    const probe: McpSession = ctx.probe();
    const pairs = await Promise.all(
      selections.map(async (selected) => {
        const [viaRead, viaTool] = await Promise.all([
          probe.readResource(selected ? descriptionsUri(base, selected) : base),
          ctx.readThroughTool(probe, selected),
        ]);
        return { selected, viaRead, viaTool };
      }),
    );
    // What got no answer proves nothing (a slow server): compared are the pairs both answered.
    const answered = pairs.filter((p) => !p.viaRead.noResponse && !p.viaTool.noResponse);
    ctx.unprovenIfSilent(
      'every call of the tool form',
      pairs.map((p) => p.viaTool),
    );
    let same = 0;
    for (const { selected, viaRead, viaTool } of answered) {
      const read = answerOf(viaRead);
      const got = answerOf(viaTool);
      if (read === got) same++;
      else
        ctx.fail(
          'answers-differ',
          {
            tool,
            selection: selected
              ? `?tools=${selected.length > 3 ? `${selected.slice(0, 2).join(',')},… (${selected.length} names)` : selected.join(',')}`
              : 'no selection',
            viaTool: inlineJson(got, 160),
            viaRead: inlineJson(read, 160),
          },
          { location, transcript: [viaRead, viaTool] },
        );
    }
    if (answered.length && same === answered.length) ctx.info('mirrored', { tool, count: same });
  },
});
