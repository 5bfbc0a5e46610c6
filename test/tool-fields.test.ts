// The fields a tool description may carry are the protocol's own: every field of MCP's Tool (the SDK's
// ToolSchema, for 2025-11-25) is known to schemas/tool-description.schema.json, so that a description a
// server (or serve) copies from its tools/list is never told to remove a field MCP defines.
import t from 'tap';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { ROOT, runCli, tempDir } from './helpers.js';

t.test("every field of MCP's Tool is a field of a tool description", async (t) => {
  const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'tool-description.schema.json'), 'utf8')) as {
    properties: Record<string, unknown>;
  };
  const mcpFields = Object.keys(ToolSchema.shape).sort();
  t.ok(mcpFields.includes('execution'), `the SDK's Tool: ${mcpFields.join(', ')}`);
  t.same(
    mcpFields.filter((field) => !(field in schema.properties)),
    [],
    'none missing from schemas/tool-description.schema.json',
  );
});

t.test('a description that carries execution, icons and _meta lints without a warning on them', async (t) => {
  const dir = join(tempDir(), 'tool_descriptions');
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'open_nodes.json'),
    JSON.stringify({
      name: 'open_nodes',
      description: 'Opens the nodes of the knowledge graph named, with their relations.',
      inputSchema: { type: 'object', additionalProperties: false },
      execution: { taskSupport: 'forbidden' },
      icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png' }],
      _meta: { 'example.com/owner': 'graph-team' },
    }),
  );
  const run = await runCli(['lint', '--only', 'lint-schema', '--format', 'json', dir]);
  const report = JSON.parse(run.stdout) as { results: Array<{ status: string; findings: Array<{ message: string }> }> };
  t.equal(report.results[0].status, 'pass', report.results[0].findings.map((f) => f.message).join('\n'));
});
