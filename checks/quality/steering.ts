// Text that steers the model instead of describing the tool — tool poisoning, what MCP scanners look
// for: instructions to ignore earlier ones, to call other tools, to send data elsewhere, to keep
// something from the user; and text the reader does not see (zero-width and bidi characters, HTML
// comments). In any level, the resource's description or the instructions: an error, the span quoted.
import { defineTextRule } from '../../src/plugin/index.js';
import { docOf, quote, serverTexts } from './texts.js';

const STEERING: Array<[RegExp, string]> = [
  [
    /\b(ignore|disregard|forget)\s+(all\s+|any\s+)?(the\s+)?(previous|prior|above|earlier|other)\s+(instructions|rules|prompts?|messages)/i,
    'an instruction to ignore earlier instructions',
  ],
  [/\b(system prompt|you are now|act as (an?|the) )/i, "an attempt to change the model's role"],
  [
    /\b(always|first|must|then|also)\s+(call|run|invoke|use)\s+(the\s+)?[`'"]?[\w.-]+[`'"]?\s+(tool\s+)?(first|before|after|instead|too|as well)\b/i,
    'an instruction to call another tool',
  ],
  [
    /\b(send|post|upload|forward|exfiltrate|leak)\b.{0,60}\b(https?:\/\/|to (this|the following) (url|address|endpoint))/i,
    'an instruction to send data elsewhere',
  ],
  [
    /\b(do not|don't|never)\s+(tell|mention|reveal|show|inform)\s+(the\s+)?user/i,
    'an instruction to keep something from the user',
  ],
];
/** Characters a reader does not see: zero-width ones, bidi controls; and HTML comments. */
const HIDDEN: Array<[RegExp, string]> = [
  [/[\u200B-\u200F\u2060-\u2064\uFEFF]/, 'a zero-width character'],
  [/[\u202A-\u202E\u2066-\u2069]/, 'a bidirectional control character'],
  [/<!--[\s\S]*?-->/, 'an HTML comment'],
];

export default defineTextRule({
  id: 'steering',
  reads: ['listed', 'full', 'resource', 'instructions'],
  title: 'No text steers the model instead of describing the tool, and none is hidden',
  spec: { url: docOf('steering'), level: 'MUST' },
  messages: {
    'steering-text': {
      message: 'What every client reads ({where}) holds {what}: "{span}".',
      hint: 'A description says what the tool does and how to call it, never what the model must do otherwise: remove the sentence (and find out how it got there).',
    },
    'hidden-text': {
      message: 'What every client reads ({where}) holds {what}, which the reader does not see: "{span}".',
      hint: 'Remove it: text the reader cannot see is how instructions are smuggled to the model.',
    },
  },
  check(texts, report) {
    const all = serverTexts(texts);
    // Each pattern first over every text at once (a catalogue of thousands of tools is one search, not
    // thousands); the texts are joined by a character no pattern matches across (\0 is not \s), and
    // only a pattern that matches somewhere is looked for text by text.
    const joined = all.map((t) => t.text).join('\0');
    const present = (patterns: Array<[RegExp, string]>) => patterns.filter(([pattern]) => pattern.test(joined));
    const steering = present(STEERING);
    const hidden = present(HIDDEN);
    if (!steering.length && !hidden.length) return;
    for (const { text, at } of all) {
      const where = at.tool !== undefined ? `tool '${at.tool}', ${at.level} level` : at.level;
      for (const [pattern, what] of steering) {
        const m = pattern.exec(text);
        if (m) report('steering-text', { where, what, span: quote(text, m.index, m[0].length) }, at);
      }
      for (const [pattern, what] of hidden) {
        const m = pattern.exec(text);
        if (m) report('hidden-text', { where, what, span: quote(text, m.index, m[0].length) }, at);
      }
    }
  },
});
