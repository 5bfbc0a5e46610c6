// Acme's checks, each against servers that pass it and servers that break it, with
// mcp-pd-check/testing (node --test; the same calls work in Vitest or any runner).
import { test } from 'node:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedServer, testCheck } from 'mcp-pd-check/testing';
import plugin from '../index.js';

const tool = (name, extra = {}) => ({
  name,
  description: `Looks up ${name} records by id.`,
  inputSchema: { type: 'object' },
  ...extra,
});
const annotated = { annotations: { readOnlyHint: true, destructiveHint: false } };

test('acme/annotations-explicit', () =>
  testCheck(plugin, 'annotations-explicit', {
    valid: [{ name: 'both hints given', target: { script: scriptedServer({ tools: [tool('orders', annotated)] }) } }],
    invalid: [
      {
        name: 'no annotations at all',
        target: { script: scriptedServer({ tools: [tool('orders')] }) },
        errors: [
          { code: 'hint-missing', args: { tool: 'orders', hint: 'readOnlyHint' } },
          { code: 'hint-missing', args: { tool: 'orders', hint: 'destructiveHint' } },
        ],
      },
      {
        name: 'readOnlyHint only',
        target: { script: scriptedServer({ tools: [tool('orders', { annotations: { readOnlyHint: true } })] }) },
        errors: [{ code: 'hint-missing', args: { tool: 'orders', hint: 'destructiveHint' } }],
      },
    ],
  }));

test('acme/description-length', () =>
  testCheck(plugin, 'description-length', {
    valid: [{ name: 'one sentence', target: { script: scriptedServer({ tools: [tool('orders', annotated)] }) } }],
    invalid: [
      {
        name: 'a paragraph in tools/list',
        target: {
          script: scriptedServer({
            tools: [tool('orders', { ...annotated, description: 'Looks up orders. '.repeat(20) })],
          }),
        },
        errors: [{ code: 'too-long', args: { tool: 'orders', words: 60, max: 40 } }],
      },
    ],
  }));

test('acme/card-owner', () => {
  const dir = mkdtempSync(join(tmpdir(), 'acme-cards-'));
  const card = (owner) => ({
    ...(owner ? { 'x-owner': owner } : {}),
    tool_card_version: '0.1',
    tool: { server_id: 'acme-orders', name: 'orders', version: '1.0.0', description: 'Looks up orders by id.' },
  });
  writeFileSync(join(dir, 'owned.json'), JSON.stringify(card('payments-team')));
  const bare = mkdtempSync(join(tmpdir(), 'acme-cards-'));
  writeFileSync(join(bare, 'orders.json'), JSON.stringify(card()));
  return testCheck(plugin, 'card-owner', {
    valid: [{ name: 'a card with x-owner', target: { lint: [dir] } }],
    invalid: [{ name: 'a card without one', target: { lint: [bare] }, errors: [{ code: 'no-owner' }] }],
  });
});
