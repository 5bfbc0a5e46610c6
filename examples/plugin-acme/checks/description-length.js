// A listed description is read in every prompt: Acme keeps each to 40 words at most (the full
// description, fetched when needed, says the rest).
import { defineLiveCheck } from 'mcp-pd-check/plugin';

/** The most words a description in tools/list may have. */
const MAX_WORDS = 40;

export default defineLiveCheck({
  id: 'description-length',
  title: `Every tools/list description is ${MAX_WORDS} words or fewer`,
  spec: { url: 'https://github.com/acme/mcp-rules/blob/main/docs/description-length.md', level: 'SHOULD' },
  needs: 'session',
  messages: {
    'too-long': {
      message: "Tool '{tool}' is listed with {words} words; Acme's limit is {max}.",
      hint: 'Keep the first sentence (what the tool does, to what) in tools/list; move the rest to its full description.',
    },
  },
  async run(ctx) {
    const { tools, toolsExchanges: transcript } = ctx.discovery;
    for (const tool of tools) {
      const name = typeof tool.name === 'string' ? tool.name : '';
      const words = typeof tool.description === 'string' ? tool.description.split(/\s+/).filter(Boolean).length : 0;
      if (words > MAX_WORDS)
        ctx.fail('too-long', { tool: name, words, max: MAX_WORDS }, { location: { tool: name }, transcript });
    }
  },
});
