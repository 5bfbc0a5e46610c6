// The bench's rows of real servers from npm, as a user's first run meets them, and what serve costs in
// front of one (a call through it, and its bounds against hostile clients).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT } from '../helpers.js';
import { measure } from './measure.js';
import { medianOf, row, textRow } from './rows.js';
import { bareNodeRssMb, MEMORY_SERVER, serveBounds, serveCost } from './serve-cost.js';

const MODULES = join(ROOT, 'node_modules', '@modelcontextprotocol');

/** The rows of real servers from npm, then those of serve, in this order. */
export async function npmServerRows(): Promise<void> {
  // Real servers from npm, as a user's first run meets them (a verdict of 'no' exits 1).
  const sandbox = mkdtempSync(join(tmpdir(), 'mcp-pd-bench-sandbox-'));
  row(
    '@modelcontextprotocol/server-everything behind serve (stdio, both eras)',
    medianOf(
      () =>
        measure(
          [
            CLI,
            '--format',
            'json',
            '--',
            'node',
            CLI,
            'serve',
            '--',
            'node',
            join(MODULES, 'server-everything', 'dist', 'index.js'),
            'stdio',
          ],
          0,
        ),
      3,
    ),
    'target: yes within 8 s',
    { ms: 8000 },
  );
  row(
    '@modelcontextprotocol/server-everything (stdio)',
    medianOf(() =>
      measure(
        [CLI, '--format', 'json', '--', 'node', join(MODULES, 'server-everything', 'dist', 'index.js'), 'stdio'],
        1,
      ),
    ),
  );
  row(
    '@modelcontextprotocol/server-filesystem (stdio)',
    medianOf(() =>
      measure(
        [CLI, '--format', 'json', '--', 'node', join(MODULES, 'server-filesystem', 'dist', 'index.js'), sandbox],
        1,
      ),
    ),
  );
  row(
    '@modelcontextprotocol/server-memory (stdio)',
    medianOf(() =>
      measure(
        [
          CLI,
          '--format',
          'json',
          '--env',
          `MEMORY_FILE_PATH=${join(sandbox, 'memory.jsonl')}`,
          '--',
          'node',
          join(MODULES, 'server-memory', 'dist', 'index.js'),
        ],
        1,
      ),
    ),
  );

  // serve: a call is two messages (request, answer), each passing the proxy once.
  const cost = await serveCost([MEMORY_SERVER(MODULES)], { MEMORY_FILE_PATH: join(sandbox, 'serve-memory.jsonl') });
  const perMessage = (cost.proxiedMs - cost.directMs) / 2;
  const bare = await bareNodeRssMb();
  textRow(
    'serve: a call of server-memory read_graph, straight / through it',
    `${cost.directMs.toFixed(2)} / ${cost.proxiedMs.toFixed(2)} ms, +${perMessage.toFixed(2)} ms per message; proxy RSS ${cost.proxyRssMb !== undefined ? `${Math.round(cost.proxyRssMb)} MB` : 'n/a'}${cost.proxyRssMb !== undefined && bare !== undefined ? `, ${Math.round(cost.proxyRssMb - bare)} MB over an idle node` : ''}`,
    'target ≤ 1 ms per message, ≤ 30 MB over an idle node',
  );
  const bounds = await serveBounds([process.execPath, join(ROOT, 'dist', 'test', 'support', 'recording-upstream.js')]);
  textRow(
    'serve --listen: 2,000 initialize POSTs',
    `+${Math.round(bounds.sessions.addedMb)} MB; answered ${bounds.sessions.kept} (--max-sessions 256)`,
    'target: bounded',
  );
  textRow(
    'serve: one 200 MB line from a client',
    `${bounds.hugeLine.cpuS.toFixed(2)} s CPU, peak ${Math.round(bounds.hugeLine.peakMb)} MB`,
    'target: linear time, ≤ 100 MB',
  );
  textRow(
    'serve: a client that never reads stdout',
    `peak ${Math.round(bounds.unread.peakMb)} MB, ${bounds.unread.sent.toLocaleString('en-US')} requests of 10 KB written`,
    'target ≤ 100 MB',
  );
  rmSync(sandbox, { recursive: true, force: true });
}
