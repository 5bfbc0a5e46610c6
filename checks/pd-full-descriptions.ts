import { defineLiveCheck } from '../src/check.js';
import { joinPointer } from '../src/json-pointer.js';
import { fetchDescriptions } from '../src/pd/fetch.js';
import { isPlainObject } from '../src/pd/payload.js';
import { FULL_TOOL_DESCRIPTION_MESSAGES, toolDescriptionProblems } from '../src/rules/tool-description.js';

/** Tools are fetched in groups of this many, to keep URIs a sane length. */
const GROUP = 50;

const messages = {
  ...FULL_TOOL_DESCRIPTION_MESSAGES,
  'no-tools-listed': 'tools/list returned no tools, so there is no description to fetch.',
  'fetch-failed': { message: 'Fetching the full descriptions of {tools} failed: {problem}.', hint: 'Answer resources/read of ?tools=a,b with JSON text: an object mapping each name to its description.' },
  'extra-keys': {
    message: 'The response has keys that were not requested: {keys}. §4.4: only the requested tools, and no instructional preamble (guidance belongs in the resource description).',
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
    const base = ctx.resourceUriOrSkip('full descriptions');
    const names = ctx.discovery.toolNames.filter((n) => !n.includes(','));
    if (names.length === 0) ctx.skip('no-tools-listed');
    for (let i = 0; i < names.length; i += GROUP) {
      const group = names.slice(i, i + GROUP);
      const got = await fetchDescriptions(ctx.reader(), base, group);
      const transcript = [got.exchange];
      if (!got.entries) {
        ctx.fail('fetch-failed', { tools: group, problem: got.problem }, { transcript });
        continue;
      }
      const extra = Object.keys(got.entries).filter((k) => !group.includes(k));
      if (extra.length) ctx.fail('extra-keys', { keys: extra }, { transcript });
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
