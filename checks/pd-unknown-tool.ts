import { defineLiveCheck } from '../src/run/check.js';
import { fetchDescriptions } from '../src/protocol/fetch.js';

export const UNKNOWN_TOOL = 'pd_check_no_such_tool';

const HINT = `Return { "<name>": { "error": "Tool '<name>' not found", "available_tools": [ …the tools/list names… ] } } for each unknown name.`;
const SAME_LIST = 'Build available_tools from the same list as tools/list.';

/** What the model expects for unknown names (src/model/read.ts judges every read of the run). */
const messages = {
  'fetch-failed': { message: "Fetching the unknown tool '{name}': {problem}; §6.3 asks for an entry explaining the name is unknown.", hint: HINT },
  'no-entry': { message: "Fetching the unknown tool '{name}' returned no entry for it (keys: {keys}).", hint: HINT },
  'no-error-text': { message: "The entry for the unknown tool '{name}' has no \"error\" text.", hint: HINT },
  'no-available-tools': { message: "The entry for the unknown tool '{name}' has no \"available_tools\" list.", hint: HINT },
  'reveals-hidden-tools': { message: 'available_tools names tools that tools/list does not show: {tools} (§10.2: do not reveal tools the client cannot use).', hint: SAME_LIST },
  'omits-tools': { message: 'available_tools leaves out tools that tools/list shows: {tools}.', hint: SAME_LIST },
  'spoils-known': {
    message: "Fetching '{tool}' together with the unknown name '{name}' did not return the description of '{tool}' ({problem}): one unknown name should not fail the known ones.",
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
  reads: ['descriptions'],
  messages,
  async run(ctx) {
    const base = ctx.resourceUriOrSkip('unknown tool names');
    // Judged by the model with every other read of the run: alone, and beside a known name.
    await fetchDescriptions(ctx.probe(), base, [UNKNOWN_TOOL]);
    const known = ctx.discovery.toolNames.find((n) => !n.includes(','));
    if (known) await fetchDescriptions(ctx.probe(), base, [known, UNKNOWN_TOOL]);
  },
});
