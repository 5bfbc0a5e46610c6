import { defineCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import { isPlainObject } from '../src/pd/payload.js';
import { RESOURCE_PATH } from '../src/pd/uri.js';
import { sanitizeLine, clip, asText } from '../src/text.js';

/**
 * What the resource description must convey (§4.2). The wording is free, so each element is a
 * pattern; a miss names the element, so an author knows what to add.
 */
const MUST_SAY: Array<[RegExp, string, string]> = [
  [/tools\/list|tool list|list of tools|tools list/i, 'how it relates to tools/list (§4.2 item 1)', 'e.g. "Step 1: pick a tool from tools/list"'],
  [/\b(must|required|requires|cannot|can ?not|can't|before|first|authori[sz]\w*)\b/i, 'that descriptions must be fetched before a tool is called (§4.2 item 2)', 'e.g. "You CANNOT call a tool until you fetch its description"'],
  [/\?tools=/, 'the ?tools= query syntax (§4.2 item 3)', 'e.g. "resource:///tool_descriptions?tools=TOOL_NAME"'],
];
const SHOULD_SAY: Array<[RegExp, string]> = [
  [/TOOL_DESCRIPTION_REQUIRED|\b(fail|fails|error|errors|refused|rejected|denied)\b/i, 'what an unfetched call gets (§4.2 item 4; the spec’s own example omits it, so this is only a warning)'],
  [/\bstep\s*\d|^\s*\d[.)]\s/im, 'sequential workflow steps (§4.2 SHOULD)'],
  [/\w+:\/\/\S*\?tools=\w/, 'a concrete URI example with ?tools= (§4.2 SHOULD)'],
  [/authori[sz]/i, 'that fetching authorizes the tool for the session (§4.2 SHOULD)'],
];

export default defineCheck<LiveContext>({
  id: 'pd-resource-listed',
  title: 'resources/list exposes the tool_descriptions resource, named and described with its workflow',
  spec: {
    doc: 'progressive-disclosure', section: '4.1', level: 'MUST', criterion: 2,
    requirements: ['PD-3.2-a', 'PD-4.1-a', 'PD-4.1-b', 'PD-4.1-c', 'PD-4.1-d', 'PD-4.1-e', 'PD-4.2-a', 'PD-4.2-b', 'PD-4.2-c', 'PD-4.2-d', 'PD-4.2-e', 'PD-4.2-g', 'PD-4.2-h'],
  },
  needs: 'session',
  async run(ctx) {
    const { resources, resourcesExchanges: transcript, resourcesProblem, descriptionsResource } = ctx.discovery;
    if (resourcesProblem) {
      ctx.fail(`resources/list did not work: ${resourcesProblem}.`, {
        transcript, hint: "Declare the resources capability and list 'resource:///tool_descriptions' in resources/list.",
      });
      return;
    }
    if (!descriptionsResource) {
      const nearMiss = resources.find((r) => /tool[_ -]?descriptions?/i.test(`${asText(r.uri)} ${asText(r.name)}`));
      const extra = nearMiss ? ` The closest is '${clip(sanitizeLine(asText(nearMiss.uri)), 80)}', but its path does not end in '${RESOURCE_PATH}'.` : '';
      ctx.fail(`resources/list has no tool_descriptions resource (${resources.length} resources listed).${extra}`, {
        transcript, hint: "List a resource with uri 'resource:///tool_descriptions' (or <scheme>://…/tool_descriptions) whose description explains the fetch-before-call workflow.",
      });
      return;
    }
    const r = descriptionsResource;
    const location = { pointer: `/resources/${resources.indexOf(r)}` };
    if (typeof r.name !== 'string' || !/tool/i.test(r.name) || !/descri/i.test(r.name)) {
      ctx.fail(`The tool_descriptions resource is named ${JSON.stringify(r.name ?? null)}, which does not say it holds tool descriptions (§4.1).`, {
        location, transcript, hint: 'Name it e.g. "Tool Descriptions - Required for tool use".',
      });
    }
    const description = typeof r.description === 'string' ? r.description : '';
    if (!description.trim()) {
      ctx.fail('The tool_descriptions resource has no description; §4.1 requires it to explain the workflow.', {
        location, transcript, hint: 'Describe the workflow: pick from tools/list, fetch ?tools=NAME, then call; calls before fetching fail.',
      });
    } else {
      for (const [pattern, what, example] of MUST_SAY) {
        if (!pattern.test(description)) ctx.fail(`The resource description does not say ${what}.`, { location, transcript, hint: `Add it, ${example}.` });
      }
      for (const [pattern, what] of SHOULD_SAY) {
        if (!pattern.test(description)) ctx.warn(`The resource description does not give ${what}.`, { location, hint: 'See the wording in guide §"Resource Description Wording".' });
      }
    }
    if (r.mimeType !== 'application/json') {
      ctx.warn(`The tool_descriptions resource has mimeType ${JSON.stringify(r.mimeType ?? null)}; §4.1 says it SHOULD be application/json.`, {
        location, transcript, hint: 'Set "mimeType": "application/json" on the resource.',
      });
    }
    if (!isPlainObject(ctx.discovery.capabilities.resources)) {
      ctx.warn('The server lists resources but does not declare the resources capability in initialize.', {
        hint: 'Declare capabilities.resources in the initialize result.',
      });
    }
  },
});
