import { defineLiveCheck } from '../src/run/check.js';
import { RESOURCE_PATH } from '../src/protocol/uri.js';
import { sanitizeLine, clip, asText } from '../src/util/text.js';

const WORDING = 'See the wording in guide §"Resource Description Wording".';

const messages = {
  'resources-list-failed': {
    message: 'resources/list did not work: {problem}.',
    hint: "Declare the resources capability and list 'resource:///tool_descriptions' in resources/list.",
  },
  'not-listed': {
    message: 'resources/list has no tool_descriptions resource ({count|resource} listed).',
    hint: "List a resource with uri 'resource:///tool_descriptions' (or <scheme>:…/tool_descriptions) whose description explains the fetch-before-call workflow.",
  },
  'near-miss': {
    message: `resources/list has no tool_descriptions resource ({count|resource} listed); the closest is '{uri}', but its path does not end in '${RESOURCE_PATH}'.`,
    hint: `Give the resource a URI whose path ends in '${RESOURCE_PATH}', e.g. 'resource:///tool_descriptions'.`,
  },
  'name-unclear': {
    message: 'The tool_descriptions resource is named {name}, which does not say it holds tool descriptions (§4.1).',
    hint: 'Name it e.g. "Tool Descriptions - Required for tool use".',
  },
  'no-description': {
    message: 'The tool_descriptions resource has no description; §4.1 requires it to explain the workflow.',
    hint: 'Describe the workflow: pick from tools/list, fetch ?tools=NAME, then call; calls before fetching fail.',
  },
  'no-tools-list-step': {
    message: 'The resource description does not say how it relates to tools/list (§4.2 item 1).',
    hint: 'Add it, e.g. "Step 1: pick a tool from tools/list".',
  },
  'no-fetch-requirement': {
    message:
      'The resource description does not say that descriptions must be fetched before a tool is called (§4.2 item 2).',
    hint: 'Add it, e.g. "You CANNOT call a tool until you fetch its description".',
  },
  'no-query-syntax': {
    message: 'The resource description does not give the ?tools= query syntax (§4.2 item 3).',
    hint: 'Add it, e.g. "resource:///tool_descriptions?tools=TOOL_NAME".',
  },
  'no-refusal-mention': {
    message:
      'The resource description does not say what an unfetched call gets (§4.2 item 4; the spec’s own example omits it, so this is only a warning).',
    hint: WORDING,
  },
  'no-steps': {
    message: 'The resource description does not give sequential workflow steps (§4.2 SHOULD).',
    hint: WORDING,
  },
  'no-uri-example': {
    message: 'The resource description does not give a concrete URI example with ?tools= (§4.2 SHOULD).',
    hint: WORDING,
  },
  'no-parameters-mention': {
    message:
      "The resource description does not say that a tool's parameters (how to call it) come from this resource while tools/list is for choosing (§4.2 SHOULD).",
    hint: 'Add it, e.g. "Step 2: fetch its full description here to learn its parameters".',
  },
  'no-authorization-mention': {
    message: 'The resource description does not say that fetching authorizes the tool for the session (§4.2 SHOULD).',
    hint: WORDING,
  },
  proof: 'resources/list lists {uri}, named {name}.',
  'mime-type': {
    message: 'The tool_descriptions resource has mimeType {mimeType}; §4.1 says it SHOULD be application/json.',
    hint: 'Set "mimeType": "application/json" on the resource.',
  },
} as const;

/**
 * What the resource description must convey (§4.2). The wording is free, so each element is a
 * pattern; a miss names the element, so an author knows what to add.
 */
const MUST_SAY: Array<[RegExp, keyof typeof messages]> = [
  [/tools\/list|tool list|list of tools|tools list/i, 'no-tools-list-step'],
  [/\b(must|required|requires|cannot|can ?not|can't|before|first|authori[sz]\w*)\b/i, 'no-fetch-requirement'],
  [/\?tools=/, 'no-query-syntax'],
];
const SHOULD_SAY: Array<[RegExp, keyof typeof messages]> = [
  [/TOOL_DESCRIPTION_REQUIRED|\b(fail|fails|error|errors|refused|rejected|denied)\b/i, 'no-refusal-mention'],
  [/\bstep\s*\d|^\s*\d[.)]\s/im, 'no-steps'],
  // Any scheme, with or without '//' (§4.1 allows server-specific ones such as orders+pd:/…).
  [/\b[a-z][a-z0-9+.-]*:\S*\?tools=\w/i, 'no-uri-example'],
  [/authori[sz]/i, 'no-authorization-mention'],
  // Selection from tools/list, parameters from here: the two stages of §3 (PD-4.2-f).
  [/\b(param\w*|argument\w*|input ?schemas?|schemas?|how to (use|call))\b/i, 'no-parameters-mention'],
];

export default defineLiveCheck({
  id: 'pd-resource-listed',
  title: 'resources/list exposes the tool_descriptions resource, named and described with its workflow',
  spec: {
    doc: 'progressive-disclosure',
    section: '4.1',
    level: 'MUST',
    criterion: 2,
    requirements: [
      'PD-3.2-a',
      'PD-4.1-a',
      'PD-4.1-b',
      'PD-4.1-c',
      'PD-4.1-d',
      'PD-4.1-e',
      'PD-4.2-a',
      'PD-4.2-b',
      'PD-4.2-c',
      'PD-4.2-d',
      'PD-4.2-e',
      'PD-4.2-f',
      'PD-4.2-g',
      'PD-4.2-h',
    ],
  },
  needs: 'session',
  messages,
  async run(ctx) {
    const { resources, resourcesExchanges: transcript, resourcesProblem, descriptionsResource } = ctx.discovery;
    if (resourcesProblem) {
      ctx.fail('resources-list-failed', { problem: resourcesProblem }, { transcript });
      return;
    }
    if (!descriptionsResource) {
      const nearMiss = resources.find((r) => /tool[_ -]?descriptions?/i.test(`${asText(r.uri)} ${asText(r.name)}`));
      if (nearMiss)
        ctx.fail(
          'near-miss',
          { count: resources.length, uri: clip(sanitizeLine(asText(nearMiss.uri)), 80) },
          { transcript },
        );
      else ctx.fail('not-listed', { count: resources.length }, { transcript });
      return;
    }
    const r = descriptionsResource;
    ctx.prove('proof', { uri: asText(r.uri), name: JSON.stringify(r.name ?? null) }, transcript);
    const location = { pointer: `/resources/${resources.indexOf(r)}` };
    if (typeof r.name !== 'string' || !/tool/i.test(r.name) || !/descri/i.test(r.name)) {
      ctx.fail('name-unclear', { name: JSON.stringify(r.name ?? null) }, { location, transcript });
    }
    const description = typeof r.description === 'string' ? r.description : '';
    if (!description.trim()) {
      ctx.fail('no-description', {}, { location, transcript });
    } else {
      for (const [pattern, code] of MUST_SAY)
        if (!pattern.test(description)) ctx.fail(code, {}, { location, transcript });
      for (const [pattern, code] of SHOULD_SAY)
        if (!pattern.test(description)) ctx.warn(code, {}, { location, transcript });
    }
    if (r.mimeType !== 'application/json')
      ctx.warn('mime-type', { mimeType: JSON.stringify(r.mimeType ?? null) }, { location, transcript });
  },
});
