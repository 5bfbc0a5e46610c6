// A schema a model can fill: not too many parameters, not too deep. Past these (documented) bounds,
// models leave parameters out or nest them wrong; split the tool or flatten its input.
import { defineTextRule, type JsonObject } from '../../src/plugin/index.js';
import { docOf, objectOf, parametersOf } from './texts.js';

const MAX_PARAMETERS = 15;
const MAX_DEPTH = 4;

/** How deep objects and arrays nest in a schema (an object of scalars: 1). */
function depthOf(schema: JsonObject | undefined, seen = 0): number {
  if (!schema || seen > 32) return 0;
  const properties = objectOf(schema.properties);
  const items = objectOf(schema.items);
  const children = [...(properties ? Object.values(properties).map(objectOf) : []), items].filter(
    (c): c is JsonObject => c !== undefined,
  );
  const own = properties || items || schema.type === 'object' || schema.type === 'array' ? 1 : 0;
  return own + Math.max(0, ...children.map((c) => depthOf(c, seen + 1)));
}

export default defineTextRule({
  id: 'schema-shape',
  reads: ['full'],
  title: `A tool's input has at most ${MAX_PARAMETERS} parameters, nested at most ${MAX_DEPTH} deep`,
  spec: { url: docOf('schema-shape'), level: 'SHOULD' },
  defaults: { maxParameters: MAX_PARAMETERS, maxDepth: MAX_DEPTH },
  messages: {
    'too-many-parameters': {
      message: "Tool '{tool}' takes {count} parameters; past {max}, models leave some out.",
      hint: 'Split the tool by job, or group rarely used parameters into one optional object.',
    },
    'too-deep': {
      message: "Tool '{tool}' nests its input {depth} levels deep; past {max}, models fill it wrong.",
      hint: 'Flatten the input: fewer levels of objects and arrays.',
    },
  },
  check(texts, report, options) {
    const maxParameters = typeof options.maxParameters === 'number' ? options.maxParameters : MAX_PARAMETERS;
    const maxDepth = typeof options.maxDepth === 'number' ? options.maxDepth : MAX_DEPTH;
    for (const tool of texts.tools) {
      if (!tool.full) continue;
      const at = { level: 'full' as const, tool: tool.name, pointer: '/inputSchema' };
      const count = parametersOf(tool.full).length;
      if (count > maxParameters) report('too-many-parameters', { count, max: maxParameters }, at);
      const depth = depthOf(objectOf(tool.full.inputSchema));
      if (depth > maxDepth) report('too-deep', { depth, max: maxDepth }, at);
    }
  },
});
