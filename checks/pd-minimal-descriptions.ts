import { defineLiveCheck } from '../src/run/check.js';
import { MODEL_MESSAGES } from '../src/model/rules.js';
import type { LiveContext } from '../src/run/context.js';
import { minimalSchemaProblems } from '../src/rules/minimal-schema.js';
import { clip, sanitizeLine } from '../src/util/text.js';
import { words } from '../src/util/words.js';

/** Text that belongs in the full description, not in tools/list (§3.1: no examples, usage, parameter docs). */
const DETAIL_PATTERNS: Array<[RegExp, string]> = [
  [/\bexamples?\s*[:：]/i, 'an example'],
  [/\b(usage|how to use)\s*[:：]/i, 'usage instructions'],
  [/```/, 'a code block'],
  [/\{\s*"[^"\n]{1,40}"\s*:/, 'a JSON example'],
  [/\b(parameters?|params|arguments?|args|inputs?)\s*[:：]/i, 'parameter documentation'],
  [/^\s*[-*•]\s*`?[\w.]+`?\s*[(:]\s*(string|number|integer|boolean|array|object|bool|int|str)\b/im, 'a parameter list'],
];

/** Fewer words than this cannot tell an LLM what the tool is for. */
const MIN_WORDS = 3;
/** Longer than this is not "minimal" any more (warning, not a failure: the spec sets no number). */
const LONG_CHARS = 400;

const SCHEMA_HINT = 'In tools/list use { "type": "object", "additionalProperties": true } and move the real schema to the full description.';

const messages = {
  ...MODEL_MESSAGES['pd-minimal-descriptions'],
  'empty-list': { message: 'tools/list returned no tools, so there is nothing to disclose progressively{problem}.', hint: 'Declare the tools capability and list your tools in tools/list.' },
  'partial-list': 'Only the tools read before this problem were checked: {problem}.',
  'no-description': { message: "Tool '{tool}' has no description in tools/list; an LLM cannot choose it without one.", hint: 'Give every tool a one-sentence description of what it does and when to use it.' },
  'too-few-words': { message: "Tool '{tool}' has a {words}-word description (\"{text}\"): too little to select the tool by.", hint: 'Say in one sentence what the tool does and when it is the right choice.' },
  'details-in-description': {
    message: "Tool '{tool}': the tools/list description contains {what} (\"{text}\"); §3.1 keeps examples, usage and parameter details out of stage 1.",
    hint: "Move examples, usage notes and parameter details to the tool's full description in tool_descriptions.",
  },
  'long-description': { message: "Tool '{tool}' has a {length}-character description in tools/list; a minimal description is usually one or two sentences.", hint: 'Shorten it to what is needed for choosing the tool; the rest belongs in the full description.' },
  'parameters-in-list': { message: "Tool '{tool}': the tools/list inputSchema details its parameters ({parameters}); §3.1 forbids detailed parameter schemas in stage 1.", hint: SCHEMA_HINT },
  'required-in-list': { message: "Tool '{tool}': the tools/list inputSchema lists required parameters ({required}).", hint: SCHEMA_HINT },
} as const;

type Ctx = LiveContext<keyof typeof messages>;

export default defineLiveCheck({
  id: 'pd-minimal-descriptions',
  title: 'tools/list gives every tool a short description fit for selection, without parameter details',
  spec: {
    doc: 'progressive-disclosure', section: '3.1', level: 'MUST', criterion: 1,
    requirements: ['PD-3.1-a', 'PD-3.1-b', 'PD-3.1-d', 'PD-3.1-e', 'PD-3.1-f'],
  },
  needs: 'session',
  messages,
  async run(ctx) {
    const { tools, toolsExchanges: transcript, toolsProblem } = ctx.discovery;
    if (tools.length === 0) {
      ctx.fail('empty-list', { problem: toolsProblem ? ` (${toolsProblem})` : '' }, { transcript });
      return;
    }
    // A broken cursor is mcp-tools-pagination's finding; judge the tools that did arrive.
    if (toolsProblem) ctx.info('partial-list', { problem: toolsProblem });
    for (const tool of tools) {
      const name = typeof tool.name === 'string' ? tool.name : '(unnamed)';
      const location = { tool: name };
      const description = tool.description;
      if (typeof description !== 'string' || description.trim() === '') {
        ctx.fail('no-description', { tool: name }, { location, transcript });
      } else {
        // Words as a segmenter counts them: a Japanese sentence is many words, not one.
        const count = words(description).length;
        if (count < MIN_WORDS) ctx.fail('too-few-words', { tool: name, words: count, text: clip(sanitizeLine(description), 60) }, { location, transcript });
        for (const [pattern, what] of DETAIL_PATTERNS) {
          const match = pattern.exec(description);
          if (match) ctx.fail('details-in-description', { tool: name, what, text: clip(sanitizeLine(match[0].trim()), 60) }, { location, transcript });
        }
        if (description.length > LONG_CHARS) ctx.warn('long-description', { tool: name, length: description.length }, { location });
      }
      checkSchema(ctx, name, tool.inputSchema, transcript);
    }
  },
});

/** Parameter details anywhere the schema says them: behind $ref, in allOf/anyOf/oneOf as well as at the top. */
function checkSchema(ctx: Ctx, name: string, schema: unknown, transcript: Ctx['discovery']['toolsExchanges']): void {
  // Omitting inputSchema is allowed here (§3.1 MAY); the base MCP rule on it is another check's job.
  for (const p of minimalSchemaProblems(schema)) {
    ctx.fail(p.code as 'parameters-in-list' | 'required-in-list', { tool: name, ...p.args }, { location: { tool: name, pointer: `/inputSchema${p.pointer}` }, transcript });
  }
}
