import { parse as parseYaml } from 'yaml';
import { defineCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import { requireDashdashOrSkip } from '../src/pd/dashdash.js';
import { isPlainObject } from '../src/pd/payload.js';
import { clip } from '../src/text.js';

const REQUIRED_HEADINGS: Array<[RegExp, string]> = [[/^##\s+When to Use\b/im, 'When to Use'], [/^##\s+Quick Reference\b/im, 'Quick Reference']];

export default defineCheck<LiveContext>({
  id: 'dashdash-ai-help',
  title: 'The ai_help method answers in markdown (YAML front matter, When to Use, Quick Reference) and in json',
  spec: { doc: 'dashdash', section: '3.3', level: 'MUST', requirements: ['DD-3.3.1-a', 'DD-3.3.1-b', 'DD-3.3.1-c', 'DD-3.3.1-d', 'DD-3.3.1-e', 'DD-3.3.2-a', 'DD-3.3.2-b'] },
  needs: 'session',
  async run(ctx) {
    requireDashdashOrSkip(ctx);
    const session = ctx.reader();
    const md = await session.request('ai_help', {});
    const error = md.response?.error as { code?: unknown } | undefined;
    if (md.noResponse || error?.code === -32601) {
      ctx.warn(`The server does not implement ai_help (${md.noResponse ? md.note : 'Method not found'}); dashdash §3.3.1 says it SHOULD.`, {
        transcript: [md], hint: 'Answer the JSON-RPC method "ai_help" with { content, contentType: "text/markdown" }.',
      });
      return;
    }
    const result = md.response?.result;
    if (!isPlainObject(result) || typeof result.content !== 'string') {
      ctx.fail('ai_help (markdown, the default) did not return { content: <markdown> }.', { transcript: [md], hint: 'Return { "content": "---\\n…front matter…\\n---\\n# …", "contentType": "text/markdown" }.' });
    } else {
      if (result.contentType !== 'text/markdown') ctx.fail(`ai_help markdown has contentType ${JSON.stringify(result.contentType ?? null)}, not "text/markdown".`, { transcript: [md], hint: 'Set "contentType": "text/markdown".' });
      const fm = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(result.content);
      if (!fm) {
        ctx.fail('The ai_help markdown does not start with YAML front matter (--- … ---), as the CLI --ai-help format requires (§3.3.2).', { transcript: [md], hint: 'Begin with ---, name:, description:, spec-version:, access-level:, then ---.' });
      } else {
        let meta: unknown;
        try {
          meta = parseYaml(fm[1]!);
        } catch (err) {
          ctx.fail(`The ai_help front matter is not valid YAML: ${clip((err as Error).message.split('\n')[0]!, 160)}.`, { transcript: [md], hint: 'Fix the YAML between the --- lines.' });
        }
        if (meta !== undefined && (!isPlainObject(meta) || typeof meta.name !== 'string' || typeof meta.description !== 'string')) {
          ctx.fail('The ai_help front matter has no name and description (the server identity, §3.3.2).', { transcript: [md], hint: 'Add name: and description: to the front matter.' });
        }
      }
      for (const [pattern, heading] of REQUIRED_HEADINGS) {
        if (!pattern.test(result.content)) ctx.fail(`The ai_help markdown has no "## ${heading}" section.`, { transcript: [md], hint: `Add a "## ${heading}" section.` });
      }
    }

    const json = await session.request('ai_help', { format: 'json' });
    const jr = json.response?.result;
    if (!isPlainObject(jr) || !isPlainObject(jr.metadata) || !isPlainObject(jr.sections)) {
      ctx.fail('ai_help with format "json" did not return { metadata, sections }.', { transcript: [json], hint: 'Return { "metadata": { name, description, specVersion }, "sections": { … }, "contentType": "application/json" }.' });
      return;
    }
    for (const key of ['name', 'description', 'specVersion']) {
      if (typeof jr.metadata[key] !== 'string') ctx.fail(`ai_help json metadata has no '${key}'.`, { transcript: [json], hint: `Add metadata.${key}.` });
    }
    if (jr.contentType !== 'application/json') ctx.fail(`ai_help json has contentType ${JSON.stringify(jr.contentType ?? null)}, not "application/json".`, { transcript: [json], hint: 'Set "contentType": "application/json".' });
    const first = Object.keys(jr.sections)[0];
    if (first) {
      const one = await session.request('ai_help', { format: 'json', section: first });
      const sections = (one.response?.result as { sections?: unknown } | undefined)?.sections;
      if (!isPlainObject(sections) || Object.keys(sections).join() !== first) {
        ctx.fail(`ai_help with section "${first}" did not return just that section (§3.3.1: section selects one).`, { transcript: [one], hint: 'Honour the "section" parameter; null or absent returns all.' });
      }
    }
  },
});
