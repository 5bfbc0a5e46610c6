import { defineLiveCheck } from '../src/run/check.js';
import { DASHDASH_PRESENCE_MESSAGES, requireDashdashOrSkip } from '../src/run/dashdash-presence.js';
import { isPlainObject } from '../src/protocol/payload.js';
import { clip } from '../src/util/text.js';
import { DASHDASH_MESSAGES, crossReferenceProblems } from '../src/rules/dashdash.js';

const REQUIRED_HEADINGS: Array<[RegExp, string]> = [
  [/^##\s+When to Use\b/im, 'When to Use'],
  [/^##\s+Quick Reference\b/im, 'Quick Reference'],
];

const messages = {
  ...DASHDASH_PRESENCE_MESSAGES,
  'alternatives-not-mentioned': DASHDASH_MESSAGES['alternatives-not-mentioned'],
  'not-implemented': {
    message: 'The server does not implement ai_help ({why}); dashdash §3.3.1 says it SHOULD.',
    hint: 'Answer the JSON-RPC method "ai_help" with { content, contentType: "text/markdown" }.',
  },
  'markdown-no-content': {
    message: 'ai_help (markdown, the default) did not return { content: <markdown> }.',
    hint: 'Return { "content": "---\\n…front matter…\\n---\\n# …", "contentType": "text/markdown" }.',
  },
  'markdown-content-type': {
    message: 'ai_help markdown has contentType {contentType}, not "text/markdown".',
    hint: 'Set "contentType": "text/markdown".',
  },
  'no-front-matter': {
    message:
      'The ai_help markdown does not start with YAML front matter (--- … ---), as the CLI --ai-help format requires (§3.3.2).',
    hint: 'Begin with ---, name:, description:, spec-version:, access-level:, then ---.',
  },
  'front-matter-not-yaml': {
    message: 'The ai_help front matter is not valid YAML: {problem}.',
    hint: 'Fix the YAML between the --- lines.',
  },
  'front-matter-no-identity': {
    message: 'The ai_help front matter has no name and description (the server identity, §3.3.2).',
    hint: 'Add name: and description: to the front matter.',
  },
  'missing-section': {
    message: 'The ai_help markdown has no "## {heading}" section.',
    hint: 'Add a "## {heading}" section.',
  },
  'json-not-structured': {
    message: 'ai_help with format "json" did not return { metadata, sections }.',
    hint: 'Return { "metadata": { name, description, specVersion }, "sections": { … }, "contentType": "application/json" }.',
  },
  'json-metadata-missing': { message: "ai_help json metadata has no '{key}'.", hint: 'Add metadata.{key}.' },
  'json-content-type': {
    message: 'ai_help json has contentType {contentType}, not "application/json".',
    hint: 'Set "contentType": "application/json".',
  },
  'section-not-honoured': {
    message: 'ai_help with section "{section}" did not return just that section (§3.3.1: section selects one).',
    hint: 'Honour the "section" parameter; null or absent returns all.',
  },
} as const;

export default defineLiveCheck({
  id: 'dashdash-ai-help',
  title: 'The ai_help method answers in markdown (YAML front matter, When to Use, Quick Reference) and in json',
  spec: {
    doc: 'dashdash',
    section: '3.3',
    level: 'MUST',
    requirements: [
      'DD-3.3.1-a',
      'DD-3.3.1-b',
      'DD-3.3.1-c',
      'DD-3.3.1-d',
      'DD-3.3.1-e',
      'DD-3.3.2-a',
      'DD-3.3.2-b',
      'DD-4.2-a',
    ],
  },
  needs: 'session',
  reads: ['descriptions'],
  preload: () => import('yaml'),
  messages,
  async run(ctx) {
    await requireDashdashOrSkip(ctx);
    const session = ctx.probe();
    const md = await session.request('ai_help', {});
    const error = md.response?.error as { code?: unknown } | undefined;
    if (md.noResponse || error?.code === -32601) {
      ctx.warn('not-implemented', { why: md.noResponse ? md.note : 'Method not found' }, { transcript: [md] });
      return;
    }
    const result = md.response?.result;
    const transcript = [md];
    if (!isPlainObject(result) || typeof result.content !== 'string') {
      ctx.fail('markdown-no-content', {}, { transcript });
    } else {
      if (result.contentType !== 'text/markdown')
        ctx.fail('markdown-content-type', { contentType: JSON.stringify(result.contentType ?? null) }, { transcript });
      const fm = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(result.content);
      if (!fm) {
        ctx.fail('no-front-matter', {}, { transcript });
      } else {
        let meta: unknown;
        try {
          // The YAML parser is loaded only here, where a front matter is there to read.
          const yaml = (await import('yaml')) as {
            parse?: (text: string) => unknown;
            default?: { parse: (text: string) => unknown };
          };
          meta = (yaml.parse ?? yaml.default!.parse)(fm[1]);
        } catch (err) {
          ctx.fail(
            'front-matter-not-yaml',
            { problem: clip((err as Error).message.split('\n')[0], 160) },
            { transcript },
          );
        }
        if (
          meta !== undefined &&
          (!isPlainObject(meta) || typeof meta.name !== 'string' || typeof meta.description !== 'string')
        ) {
          ctx.fail('front-matter-no-identity', {}, { transcript });
        }
      }
      for (const [pattern, heading] of REQUIRED_HEADINGS) {
        if (!pattern.test(result.content))
          ctx.fail('missing-section', { heading }, { transcript, location: { pointer: `/sections/${heading}` } });
      }
      ctx.problems(undefined, crossReferenceProblems(ctx.discovery.initializeResult.dashdash, result.content), {
        transcript: [...ctx.discovery.initializeExchanges, md],
      });
    }

    const json = await session.request('ai_help', { format: 'json' });
    const jr = json.response?.result;
    if (!isPlainObject(jr) || !isPlainObject(jr.metadata) || !isPlainObject(jr.sections)) {
      ctx.fail('json-not-structured', {}, { transcript: [json] });
      return;
    }
    for (const key of ['name', 'description', 'specVersion']) {
      if (typeof jr.metadata[key] !== 'string')
        ctx.fail('json-metadata-missing', { key }, { transcript: [json], location: { pointer: `/metadata/${key}` } });
    }
    if (jr.contentType !== 'application/json')
      ctx.fail('json-content-type', { contentType: JSON.stringify(jr.contentType ?? null) }, { transcript: [json] });
    const first = Object.keys(jr.sections)[0];
    if (first) {
      const one = await session.request('ai_help', { format: 'json', section: first });
      const sections = (one.response?.result as { sections?: unknown } | undefined)?.sections;
      if (!isPlainObject(sections) || Object.keys(sections).join() !== first)
        ctx.fail('section-not-honoured', { section: first }, { transcript: [one] });
    }
  },
});
