import { defineLiveCheck } from '../src/check.js';
import { joinPointer } from '../src/json-pointer.js';
import { fetchDescriptions } from '../src/pd/fetch.js';
import { isPlainObject } from '../src/pd/payload.js';
import { FULL_TOOL_DESCRIPTION_MESSAGES, toolDescriptionProblems } from '../src/rules/tool-description.js';
import type { Exchange } from '../src/target/types.js';

/** Tools are fetched in groups of this many, to keep URIs a sane length. */
const GROUP = 50;
/** A name no server has, to see that an unknown name adds nothing but its own entry. */
const UNKNOWN_NAME = 'pd_check_no_such_tool';

const messages = {
  ...FULL_TOOL_DESCRIPTION_MESSAGES,
  'no-tools-listed': 'tools/list returned no tools, so there is no description to fetch.',
  'fetch-failed': { message: 'Fetching the full descriptions of {tools} failed: {problem}.', hint: 'Answer resources/read of ?tools=a,b with JSON text: an object mapping each name to its description.' },
  'extra-keys': {
    message: 'Asked for {requested}, the response also has {keys}. §4.4: only the requested tools, and no instructional preamble (guidance belongs in the resource description).',
    hint: 'Return an object whose keys are exactly the requested tool names.',
  },
  'missing-entry': { message: "The response has no description for the requested tool '{tool}'.", hint: 'Return { "<name>": { name, description, inputSchema, examples } } for every requested tool.' },
} as const;

export default defineLiveCheck({
  id: 'pd-full-descriptions',
  title: 'The resource returns exactly the requested tools, each with a complete input schema and valid examples',
  spec: {
    doc: 'progressive-disclosure', section: '4.4', level: 'MUST', criterion: 4,
    requirements: ['PD-3.2-b', 'PD-3.2-c', 'PD-3.2-d', 'PD-4.4-a', 'PD-4.4-b', 'PD-4.4-c'],
  },
  needs: 'session',
  messages,
  async run(ctx) {
    const base = await ctx.resourceUriOrSkip('full descriptions');
    const names = ctx.discovery.toolNames.filter((n) => !n.includes(','));
    if (names.length === 0) ctx.skip('no-tools-listed');
    /** Every answer must hold exactly what was asked (an unknown name gets its §6.3 entry): nothing more. */
    const onlyWhatWasAsked = (requested: string[], entries: Record<string, unknown>, transcript: Exchange[]) => {
      const extra = Object.keys(entries).filter((k) => !requested.includes(k));
      if (extra.length) ctx.fail('extra-keys', { requested, keys: extra }, { transcript });
    };
    // Small fetches first: a server that returns every tool shows it only when asked for fewer.
    const probes = [[names[0]!], ...(names.length > 1 ? [[names[0]!, names[1]!]] : []), [names[0]!, UNKNOWN_NAME]];
    for (const requested of probes) {
      const got = await fetchDescriptions(ctx.reader(), base, requested);
      if (got.entries) onlyWhatWasAsked(requested, got.entries, [got.exchange]);
    }
    for (let i = 0; i < names.length; i += GROUP) {
      const group = names.slice(i, i + GROUP);
      const got = await fetchDescriptions(ctx.reader(), base, group);
      const transcript = [got.exchange];
      if (!got.entries) {
        ctx.fail('fetch-failed', { tools: group, problem: got.problem }, { transcript });
        continue;
      }
      onlyWhatWasAsked(group, got.entries, transcript);
      for (const name of group) {
        const entry = got.entries[name];
        if (!isPlainObject(entry)) {
          ctx.fail('missing-entry', { tool: name }, { location: { tool: name }, transcript });
          continue;
        }
        // The same rules as the lint of tool_descriptions/<name>.json, with the same codes.
        ctx.problems(name, toolDescriptionProblems(entry, { name, why: 'the name it was fetched by' }), { base: joinPointer('', name), transcript });
      }
    }
  },
});
