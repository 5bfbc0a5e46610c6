// The protocol's small parts, in-process: the protocol version asked for, tool_descriptions URIs, error
// codes in every accepted form, calls classified, which tools may be called and with what, arguments a
// schema surely refuses, and "not called" over several eras.
import t from 'tap';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { Discovery } from '../src/run/discovery.js';
import { classifyCall } from '../src/protocol/calls.js';
import { ToolFacts } from '../src/run/tools.js';
import { findSignalledError, invalidErrorCode } from '../src/protocol/errors.js';
import { descriptionsUri, isToolDescriptionsUri, requestedTools, sameUri } from '../src/protocol/uri.js';
import { PROTOCOL_VERSION } from '../src/transport/session-opening.js';
import type { Exchange } from '../src/transport/types.js';

function exchange(response: Record<string, unknown>): Exchange {
  return {
    session: 's1',
    method: 'tools/call',
    request: { jsonrpc: '2.0', id: 1, method: 'tools/call' },
    response: { jsonrpc: '2.0', id: 1, ...response },
    durationMs: 1,
  };
}

t.test('the checker asks for the SDK’s latest protocol version', async (t) => {
  t.equal(PROTOCOL_VERSION, LATEST_PROTOCOL_VERSION);
});

t.test('tool_descriptions URIs', async (t) => {
  t.ok(isToolDescriptionsUri('resource:///tool_descriptions'));
  t.ok(isToolDescriptionsUri('myserver://docs/tool_descriptions?x=1'));
  t.ok(isToolDescriptionsUri('pd://tool_descriptions'));
  t.notOk(isToolDescriptionsUri('resource:///tool_descriptions_v2'));
  t.notOk(isToolDescriptionsUri('resource:///descriptions'));
  t.equal(descriptionsUri('resource:///tool_descriptions', ['a', 'b.c']), 'resource:///tool_descriptions?tools=a,b.c');
  t.equal(descriptionsUri('x://h/tool_descriptions?v=2', ['a b']), 'x://h/tool_descriptions?v=2&tools=a%20b');
  t.same(requestedTools('resource:///tool_descriptions?tools=a,%20b'), ['a', 'b']);
  t.equal(requestedTools('resource:///tool_descriptions'), undefined);
  t.ok(
    sameUri('resource:///tool_descriptions?tools=get%5Fnote', 'resource:///tool_descriptions?tools=get_note'),
    'percent-encoding aside',
  );
  t.notOk(
    sameUri('resource:///tool_descriptions', 'resource:///tool_descriptions?tools=get_note'),
    'the bare URI is not the fetch URI',
  );
  t.notOk(sameUri('resource:///tool_descriptions?tools=a', 'resource:///tool_descriptions?tools=b'));
});

t.test('error codes are found in every accepted form, and the form is named', async (t) => {
  const code = 'TOOL_DESCRIPTION_REQUIRED';
  const payload = { code, message: 'm', resource_uri: 'u' };
  const forms: Array<[Record<string, unknown>, string, boolean]> = [
    [{ error: { code: -32001, message: 'x', data: payload } }, 'JSON-RPC error data.code', true],
    [{ error: { code: -32001, message: 'x', data: { error: payload } } }, 'JSON-RPC error data.error.code', true],
    [
      { result: { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: payload }) }] } },
      'JSON text in a successful result',
      true,
    ],
    [{ result: { content: [], structuredContent: { error: payload } } }, 'structuredContent of a tool result', true],
    [{ error: { code: -32603, message: `${code}: fetch first` } }, 'only in an error message text', false],
  ];
  for (const [response, form, accepted] of forms) {
    const found = findSignalledError(exchange(response), code);
    t.equal(found?.form, form);
    t.equal(found?.accepted, accepted);
  }
  t.equal(findSignalledError(exchange({ result: { content: [{ type: 'text', text: 'ok' }] } }), code), undefined);
  t.equal(
    findSignalledError(
      exchange({ result: { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: payload }) }] } }),
      code,
    )?.isError,
    true,
  );
});

t.test('a string JSON-RPC error code is invalid JSON-RPC', async (t) => {
  t.match(
    invalidErrorCode(exchange({ error: { code: 'TOOL_DESCRIPTION_REQUIRED', message: 'x' } })),
    /requires an integer/,
  );
  t.equal(invalidErrorCode(exchange({ error: { code: -32602, message: 'x' } })), undefined);
  t.equal(invalidErrorCode(exchange({ result: {} })), undefined);
});

t.test('calls are classified as refused, authorized or unanswered', async (t) => {
  const refusal = {
    result: {
      isError: true,
      content: [{ type: 'text', text: JSON.stringify({ error: { code: 'TOOL_DESCRIPTION_REQUIRED' } }) }],
    },
  };
  t.equal(classifyCall(exchange(refusal)).kind, 'refused');
  t.equal(
    classifyCall(exchange({ result: { isError: true, content: [{ type: 'text', text: 'bad arguments' }] } })).kind,
    'authorized',
    'a validation error is an authorized call',
  );
  t.equal(
    classifyCall({ ...exchange({}), response: undefined, noResponse: 'timeout', note: 'no response within 5 ms' }).kind,
    'no-response',
  );
});

t.test('--safe-calls keeps only tools marked read-only; call arguments come from the first example', async (t) => {
  const discovery = {
    toolNames: ['read_a', 'write_b', 'read_c'],
    tools: [
      { name: 'read_a', annotations: { readOnlyHint: true } },
      { name: 'write_b', annotations: { readOnlyHint: false } },
      { name: 'read_c', dashdash: { operationType: 'read' } },
    ],
  } as unknown as Discovery;
  const full = new Map([['write_b', { examples: [{ input: { x: 1 } }] }]]);
  const tools = new ToolFacts(discovery, full, { safeCalls: false, safeTools: [] });
  t.same(new ToolFacts(discovery, full, { safeCalls: true, safeTools: [] }).callable(), ['read_a', 'read_c']);
  t.same(new ToolFacts(discovery, full, { safeCalls: true, safeTools: [] }).barredBySafeCalls('write_b'), true);
  t.same(tools.callable(), ['read_a', 'write_b', 'read_c']);
  t.same(tools.barredBySafeCalls('write_b'), false);
  t.same(tools.exampleArguments('write_b'), { x: 1 });
  t.same(tools.exampleArguments('read_a'), {});
});

t.test(
  'arguments a schema surely refuses: a missing required property, a wrong type, or one more property where none is allowed',
  async (t) => {
    const { invalidArguments } = await import('../src/protocol/calls.js');
    t.same(invalidArguments({ type: 'object', required: ['id'] })?.args, {});
    t.same(invalidArguments({ type: 'object', properties: { n: { type: 'number' } } })?.args, { n: 'not a number' });
    const closed = invalidArguments({ type: 'object', properties: { text: {} }, additionalProperties: false });
    t.same(
      closed?.args,
      { pd_check_unexpected_argument: true },
      'additionalProperties: false refuses one more property',
    );
    t.match(closed?.violation, /allows no other \(additionalProperties: false\)/);
    t.equal(
      invalidArguments({ type: 'object', additionalProperties: true }),
      undefined,
      'a schema that takes anything refuses nothing',
    );
  },
);

t.test('over several eras, a tool is "not called" only when no era called it', async (t) => {
  const { mergeEraReports } = await import('../src/run/eras.js');
  const verdict = (notCalled: string[]) => ({
    implements: 'yes' as const,
    summary: '',
    failing: [],
    notTestable: [],
    notCalled: notCalled.map((tool) => ({ tool, why: 'a reason', harm: true })),
  });
  const report = (era: '2025-11-25' | '2026-07-28', notCalled: string[]) => ({
    era,
    report: {
      tool: { name: 'mcp-pd-check', version: '0' },
      target: { kind: 'stdio' as const },
      startedAt: '',
      durationMs: 0,
      summary: { passed: 0, failed: 0, warnings: 0, skipped: 0, errors: 0 },
      results: [],
      verdict: verdict(notCalled),
    },
  });
  const merged = mergeEraReports([report('2025-11-25', ['a', 'b']), report('2026-07-28', ['b'])], [], 'all', 0);
  t.same(
    merged.verdict?.notCalled?.map((n) => n.tool),
    ['b'],
    "'a' was called in 2026-07-28: not said to be not called",
  );
});
