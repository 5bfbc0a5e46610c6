import { defineCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import { fetchDescriptions, isDescriptionEntry } from '../src/pd/fetch.js';
import { isPlainObject } from '../src/pd/payload.js';
import { listing } from '../src/text.js';

export const UNKNOWN_TOOL = 'pd_check_no_such_tool';

export default defineCheck<LiveContext>({
  id: 'pd-unknown-tool',
  title: 'Fetching an unknown tool name gives an entry with an error and the available tools',
  spec: {
    doc: 'progressive-disclosure', section: '6.3', level: 'SHOULD', criterion: 9,
    requirements: ['PD-6.3-a', 'PD-10.2-b'],
  },
  needs: 'session',
  async run(ctx) {
    const base = ctx.resourceUriOrFail('unknown tool names');
    const names = ctx.discovery.toolNames;
    const hint = `Return { "<name>": { "error": "Tool '<name>' not found", "available_tools": [ …the tools/list names… ] } } for each unknown name.`;
    const got = await fetchDescriptions(ctx.reader(), base, [UNKNOWN_TOOL]);
    const transcript = [got.exchange];
    if (!got.entries) {
      ctx.fail(`Fetching the unknown tool '${UNKNOWN_TOOL}': ${got.problem}; §6.3 asks for an entry explaining the name is unknown.`, { transcript, hint });
    } else {
      const entry = got.entries[UNKNOWN_TOOL];
      if (!isPlainObject(entry)) {
        ctx.fail(`Fetching the unknown tool '${UNKNOWN_TOOL}' returned no entry for it (keys: ${listing(Object.keys(got.entries)) || 'none'}).`, { transcript, hint });
      } else {
        if (typeof entry.error !== 'string' || !entry.error.trim()) {
          ctx.fail(`The entry for the unknown tool has no "error" text.`, { transcript, hint });
        }
        const available = entry.available_tools;
        if (!Array.isArray(available)) {
          ctx.fail('The entry for the unknown tool has no "available_tools" list.', { transcript, hint });
        } else {
          const listed = available.map(String);
          const hidden = listed.filter((n) => !names.includes(n));
          const missing = names.filter((n) => !listed.includes(n));
          if (hidden.length) {
            ctx.fail(`available_tools names tools that tools/list does not show: ${listing(hidden)} (§10.2: do not reveal tools the client cannot use).`, { transcript, hint: 'Build available_tools from the same list as tools/list.' });
          }
          if (missing.length) {
            ctx.fail(`available_tools leaves out tools that tools/list shows: ${listing(missing)}.`, { transcript, hint: 'Build available_tools from the same list as tools/list.' });
          }
        }
      }
    }
    // One unknown name must not spoil the known ones in the same request.
    const known = names.find((n) => !n.includes(','));
    if (known) {
      const mixed = await fetchDescriptions(ctx.reader(), base, [known, UNKNOWN_TOOL]);
      if (!mixed.entries || !isDescriptionEntry(mixed.entries[known])) {
        ctx.fail(`Fetching ?tools=${known},${UNKNOWN_TOOL} did not return the description of '${known}': one unknown name should not fail the known ones.`, {
          transcript: [mixed.exchange], hint: 'Answer per name: descriptions for known names, a not-found entry for unknown ones.',
        });
      }
    }
  },
});
