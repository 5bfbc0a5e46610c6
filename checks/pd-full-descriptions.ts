import { defineLiveCheck } from '../src/run/check.js';
import { MODEL_MESSAGES } from '../src/model/rules.js';
import { joinPointer } from '../src/util/json-pointer.js';
import { fetchDescriptions, isDescriptionEntry } from '../src/protocol/fetch.js';
import { requestedTools } from '../src/protocol/uri.js';
import { FULL_TOOL_DESCRIPTION_MESSAGES, toolDescriptionProblems } from '../src/rules/tool-description.js';

/** A name no server has, to see that an unknown name adds nothing but its own entry. */
const UNKNOWN_NAME = 'pd_check_no_such_tool';

const messages = {
  ...MODEL_MESSAGES['pd-full-descriptions'],
  ...FULL_TOOL_DESCRIPTION_MESSAGES,
  'no-tools-listed': 'tools/list returned no tools, so there is no description to fetch.',
  proof:
    '?tools={asked} returned an object keyed by exactly the requested {count|name}, each a description with an inputSchema.',
  // The answer's keys: judged by the model on every read of the run (src/model/read.ts).
} as const;

/** The names a read asked for. */
function requestedOf(uri: string): string[] {
  return requestedTools(uri) ?? [];
}

export default defineLiveCheck({
  id: 'pd-full-descriptions',
  title: 'The resource returns exactly the requested tools, each with a complete input schema and valid examples',
  spec: {
    doc: 'progressive-disclosure',
    section: '4.4',
    level: 'MUST',
    criterion: 4,
    requirements: ['PD-3.2-b', 'PD-3.2-c', 'PD-3.2-d', 'PD-4.4-a', 'PD-4.4-b', 'PD-4.4-c'],
  },
  needs: 'session',
  reads: ['descriptions'],
  messages,
  async run(ctx) {
    const base = ctx.resourceUriOrSkip('full descriptions');
    const names = ctx.discovery.toolNames.filter((n) => !n.includes(','));
    if (names.length === 0) ctx.skip('no-tools-listed');
    // Small reads first: a server that returns every tool shows it only when asked for fewer.
    // Their keys are judged by the model, with every other read of the run.
    const got = await Promise.all(
      [[names[0]], ...(names.length > 1 ? [[names[0], names[1]]] : []), [names[0], UNKNOWN_NAME]].map((requested) =>
        fetchDescriptions(ctx.probe(), base, requested),
      ),
    );
    ctx.unprovenIfSilent(
      'every read of ?tools=',
      got.map((g) => g.exchange),
    );
    const exact = got
      .slice(0, -1)
      .reverse()
      .find(
        (g) =>
          g.entries &&
          Object.keys(g.entries).length === requestedOf(g.uri).length &&
          requestedOf(g.uri).every(
            (n) => isDescriptionEntry(g.entries![n]) && typeof g.entries![n].inputSchema === 'object',
          ),
      );
    if (exact)
      ctx.prove('proof', { asked: requestedOf(exact.uri).join(','), count: requestedOf(exact.uri).length }, [
        exact.exchange,
      ]);
    // Each description, by the same rules as the lint of tool_descriptions/<name>.json.
    const full = ctx.facts.descriptions.full;
    for (const name of names) {
      const entry = full.get(name);
      if (!entry) continue; // no description came for it: the model's finding (missing-entry, or criterion 3's)
      const transcript = [ctx.facts.descriptions.reads.get(name)!].filter(Boolean);
      ctx.problems(name, toolDescriptionProblems(entry, { name, why: 'the name it was fetched by' }), {
        base: joinPointer('', name),
        transcript,
      });
    }
  },
});
