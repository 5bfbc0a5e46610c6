// A client that defers MCP tools (Claude Code) reads only their names and the server's instructions
// until the model asks: a server that gives instructions says the fetch-then-call workflow there.
import { defineTextRule } from '../../src/plugin/index.js';
import { docOf } from './texts.js';

const WORKFLOW = /(tool_descriptions|\?tools=|(fetch|read).{0,40}description.{0,60}(before|then).{0,20}call)/i;

export default defineTextRule({
  id: 'instructions-workflow',
  reads: ['instructions'],
  title: "The server's instructions, when it gives them, say to fetch a tool's description before calling it",
  spec: { url: docOf('instructions-workflow'), level: 'SHOULD' },
  messages: {
    'no-workflow': {
      message:
        "The server's instructions do not say the workflow: a client that reads only the instructions and the names will call tools unfetched.",
      hint: 'Add one sentence: "Before calling a tool, read resource:///tool_descriptions?tools=<name>; a call before that fails with TOOL_DESCRIPTION_REQUIRED."',
    },
  },
  check(texts, report) {
    // Only a server that discloses progressively has the workflow to state.
    const disclosing = texts.resource !== undefined || texts.tools.some((t) => t.full !== undefined);
    if (texts.instructions === undefined || !disclosing) return;
    if (!WORKFLOW.test(texts.instructions)) report('no-workflow', {}, { level: 'instructions' });
  },
});
