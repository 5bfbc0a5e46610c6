import { defineLiveCheck } from '../src/check.js';
import { entryFor, fetchDescriptions, isDescriptionEntry } from '../src/pd/fetch.js';
import { isPlainObject } from '../src/pd/payload.js';

export const UNKNOWN_TOOL = 'pd_check_no_such_tool';

const HINT = `Return { "<name>": { "error": "Tool '<name>' not found", "available_tools": [ …the tools/list names… ] } } for each unknown name.`;
const SAME_LIST = 'Build available_tools from the same list as tools/list.';

const messages = {
  'fetch-failed': { message: `Fetching the unknown tool '${UNKNOWN_TOOL}': {problem}; §6.3 asks for an entry explaining the name is unknown.`, hint: HINT },
  'no-entry': { message: `Fetching the unknown tool '${UNKNOWN_TOOL}' returned no entry for it (keys: {keys}).`, hint: HINT },
  'no-error-text': { message: 'The entry for the unknown tool has no "error" text.', hint: HINT },
  'no-available-tools': { message: 'The entry for the unknown tool has no "available_tools" list.', hint: HINT },
  'reveals-hidden-tools': { message: 'available_tools names tools that tools/list does not show: {tools} (§10.2: do not reveal tools the client cannot use).', hint: SAME_LIST },
  'omits-tools': { message: 'available_tools leaves out tools that tools/list shows: {tools}.', hint: SAME_LIST },
  'spoils-known': {
    message: `Fetching ?tools={tool},${UNKNOWN_TOOL} did not return the description of '{tool}': one unknown name should not fail the known ones.`,
    hint: 'Answer per name: descriptions for known names, a not-found entry for unknown ones.',
  },
} as const;

export default defineLiveCheck({
  id: 'pd-unknown-tool',
  title: 'Fetching an unknown tool name gives an entry with an error and the available tools',
  spec: {
    doc: 'progressive-disclosure', section: '6.3', level: 'SHOULD', criterion: 9,
    requirements: ['PD-6.3-a', 'PD-10.2-b'],
  },
  needs: 'session',
  messages,
  async run(ctx) {
    const base = await ctx.resourceUriOrSkip('unknown tool names');
    const names = ctx.discovery.toolNames;
    const got = await fetchDescriptions(ctx.reader(), base, [UNKNOWN_TOOL]);
    const transcript = [got.exchange];
    if (!got.entries) {
      ctx.fail('fetch-failed', { problem: got.problem }, { transcript });
    } else {
      const entry = entryFor(got.entries, UNKNOWN_TOOL);
      if (!isPlainObject(entry)) {
        ctx.fail('no-entry', { keys: Object.keys(got.entries).length ? Object.keys(got.entries) : 'none' }, { transcript });
      } else {
        if (typeof entry.error !== 'string' || !entry.error.trim()) ctx.fail('no-error-text', {}, { transcript });
        const available = entry.available_tools;
        if (!Array.isArray(available)) {
          ctx.fail('no-available-tools', {}, { transcript });
        } else {
          const listed = available.map(String);
          const hidden = listed.filter((n) => !names.includes(n));
          const missing = names.filter((n) => !listed.includes(n));
          if (hidden.length) ctx.fail('reveals-hidden-tools', { tools: hidden }, { transcript });
          if (missing.length) ctx.fail('omits-tools', { tools: missing }, { transcript });
        }
      }
    }
    // One unknown name must not spoil the known ones in the same request.
    const known = names.find((n) => !n.includes(','));
    if (known) {
      const mixed = await fetchDescriptions(ctx.reader(), base, [known, UNKNOWN_TOOL]);
      if (!isDescriptionEntry(entryFor(mixed.entries, known))) ctx.fail('spoils-known', { tool: known }, { transcript: [mixed.exchange] });
    }
  },
});
