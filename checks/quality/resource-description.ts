// The tool_descriptions resource's description against the seeds' proven pattern ("Resource
// Description Wording"), on the points pd-resource-listed does not already check (it checks the
// steps, the tools/list step, the fetch requirement, ?tools= and an example URI): the WHICH/HOW split
// said, the prohibition in mandatory words (CANNOT), the base URI's failure, and a length the guide
// found followed — neither one line nor several paragraphs. Live only: lint reads no resources/list.
import { defineTextRule } from '../../src/plugin/index.js';
import { docOf, textOf } from './texts.js';

/** Fewer characters than this is "too brief"; more paragraphs than this, or characters, is too long. */
const MIN_CHARS = 120;
const MAX_PARAGRAPHS = 3;
const MAX_CHARS = 1500;

/** Each point, and the words that make it: every pattern of a point must match. */
const POINTS: Array<[string, RegExp[]]> = [
  ['no-which-how', [/\b(which|what|choose|choosing|select|selecting|pick|decide)\b/i, /\bhow\b/i]],
  ['no-prohibition', [/\b(cannot|can ?not|must not|may not|never|not allowed)\b/i]],
  [
    'no-base-failure',
    [/(MISSING_TOOL_SELECTION|without \?tools|base URI|the base .{0,20}alone|\?tools= (parameter )?is required)/i],
  ],
];

export default defineTextRule({
  id: 'resource-description',
  reads: ['resource'],
  title:
    "The resource's description follows the proven pattern beyond pd-resource-listed: WHICH/HOW, CANNOT, the base URI's failure, a few lines",
  spec: { url: docOf('resource-description'), level: 'SHOULD' },
  runs: ['live'],
  messages: {
    'no-which-how': {
      message:
        "The resource's description does not say the split: tools/list tells WHICH tool to choose, this resource HOW to call it.",
      hint: 'Say that the short descriptions of tools/list are for choosing, and this resource for learning how to call.',
    },
    'no-prohibition': {
      message:
        "The resource's description does not state the prohibition in mandatory words (CANNOT, MUST NOT): the guide found softer wording ignored.",
      hint: 'State the prohibition: "you CANNOT call a tool before fetching its description: the call fails with TOOL_DESCRIPTION_REQUIRED".',
    },
    'no-base-failure': {
      message: "The resource's description does not say that the base URI alone fails (MISSING_TOOL_SELECTION).",
      hint: 'Say that ?tools= is required: the base URI alone returns MISSING_TOOL_SELECTION.',
    },
    'too-brief': {
      message:
        "The resource's description is only {length} characters: the guide found a line or so too brief to be followed.",
      hint: "Give the steps, the prohibition and an example URI (the reference server's description is a model).",
    },
    'too-long': {
      message:
        "The resource's description runs to {paragraphs} paragraphs, {length} characters: models skim past several paragraphs.",
      hint: 'Keep it to the steps, the prohibition and an example: a few lines.',
    },
  },
  check(texts, report) {
    const text = textOf(texts.resource?.description);
    // No description at all is pd-resource-listed's finding (no-description).
    if (!text.trim()) return;
    const at = { level: 'resource' as const, pointer: '/description' };
    if (text.trim().length < MIN_CHARS) report('too-brief', { length: text.trim().length }, at);
    const paragraphs = text.split(/\n\s*\n/).filter((p) => p.trim()).length;
    if (paragraphs > MAX_PARAGRAPHS || text.length > MAX_CHARS)
      report('too-long', { paragraphs, length: text.length }, at);
    for (const [code, patterns] of POINTS)
      if (!patterns.every((p) => p.test(text))) report(code as 'no-which-how', {}, at);
  },
});
