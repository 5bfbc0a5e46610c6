// docs/workflows/sweep.yml walked as GitHub Actions would run it, here: the YAML parses; it is a
// matrix of shard jobs and a merge job that needs them; the mcp-pd-check lines of its `run:` steps
// are returned for the README walk's flag check; and its commands run as the jobs would — each shard
// in a job folder of its own (a stand-in mcp-servers.json of reference servers), its artifact copied
// where download-artifact puts it, then the merge — ending as the docs promise.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ROOT } from '../helpers.js';

export const SWEEP_WORKFLOW = join(ROOT, 'docs', 'workflows', 'sweep.yml');
const REFERENCE = join(ROOT, 'dist', 'reference-server', 'bundle.js');

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
}
interface Job {
  needs?: string | string[];
  strategy?: { matrix?: { shard?: number[] } };
  steps?: Step[];
}

export interface SweepWalk {
  /** The mcp-pd-check command lines of its run steps (for the flag check). */
  lines: string[];
  ran: string[];
  problems: string[];
}

/** The run scripts of a job, as sh would run them here (`npx -y mcp-pd-check` is the built CLI on PATH). */
function scripts(job: Job | undefined, shard?: number): string[] {
  return (job?.steps ?? []).flatMap((s) =>
    s.run
      ? [
          s.run
            .replace(/\$\{\{\s*matrix\.shard\s*\}\}/g, String(shard))
            .replace(/\bnpx -y mcp-pd-check\b/g, 'mcp-pd-check'),
        ]
      : [],
  );
}

export function walkSweep(scratch: string, env: NodeJS.ProcessEnv): SweepWalk {
  const walked: SweepWalk = { lines: [], ran: [], problems: [] };
  let doc: { jobs?: Record<string, Job> };
  try {
    doc = parseYaml(readFileSync(SWEEP_WORKFLOW, 'utf8')) as typeof doc;
  } catch (err) {
    walked.problems.push(`docs/workflows/sweep.yml does not parse: ${(err as Error).message.split('\n')[0]}`);
    return walked;
  }
  const { shard, merge } = doc.jobs ?? {};
  const shards = shard?.strategy?.matrix?.shard ?? [];
  if (!shards.length || merge?.needs !== 'shard') {
    walked.problems.push(
      'docs/workflows/sweep.yml: expected a job `shard` with a matrix of shards and a job `merge` that needs it',
    );
    return walked;
  }
  walked.lines = [...scripts(shard, 1), ...scripts(merge)]
    .flatMap((s) => s.replace(/\\\n\s*/g, '').split('\n'))
    .filter((l) => /\bmcp-pd-check\b/.test(l));
  // The matrix, one job after the other, each in its own folder (a runner of its own).
  const root = join(scratch, 'sweep');
  const names = ['billing', 'calendar', 'docs', 'search', 'tickets'];
  const placed: string[] = [];
  for (const k of shards) {
    const job = join(root, `job-${k}`);
    mkdirSync(job, { recursive: true });
    writeFileSync(
      join(job, 'mcp-servers.json'),
      JSON.stringify({ mcpServers: Object.fromEntries(names.map((n) => [n, { command: 'node', args: [REFERENCE] }])) }),
    );
    for (const script of scripts(shard, k)) {
      const run = spawnSync('/bin/sh', ['-c', script], { cwd: job, env, encoding: 'utf8', timeout: 600_000 });
      if (run.status !== 0)
        walked.problems.push(
          `docs/workflows/sweep.yml, shard ${k}: exit ${run.status}:\n  ${`${run.stdout}${run.stderr}`.trim().split('\n').slice(-3).join('\n  ')}`,
        );
    }
    const report = join(job, `shard-${k}.json`);
    if (!existsSync(report)) continue;
    placed.push(
      ...(JSON.parse(readFileSync(report, 'utf8')) as { servers: Array<{ name: string }> }).servers.map((s) => s.name),
    );
    // actions/download-artifact with a pattern: a folder per artifact.
    const artifact = join(root, 'merge', 'shards', `mcp-shard-${k}`);
    mkdirSync(artifact, { recursive: true });
    cpSync(report, join(artifact, `shard-${k}.json`));
    if (existsSync(join(job, 'sweep-out')))
      cpSync(join(job, 'sweep-out'), join(artifact, 'sweep-out'), { recursive: true });
  }
  if ([...placed].sort().join() !== names.join())
    walked.problems.push(
      `docs/workflows/sweep.yml: the shards checked ${placed.join(', ')}, not each of ${names.join(', ')} once`,
    );
  const summary = join(root, 'merge', 'summary.md');
  for (const script of scripts(merge)) {
    const run = spawnSync('/bin/sh', ['-c', script], {
      cwd: join(root, 'merge'),
      env: { ...env, GITHUB_STEP_SUMMARY: summary },
      encoding: 'utf8',
    });
    if (run.status !== 0)
      walked.problems.push(
        `docs/workflows/sweep.yml, merge: exit ${run.status}, not 0:\n  ${`${run.stdout}${run.stderr}`.trim().split('\n').slice(-3).join('\n  ')}`,
      );
  }
  const missing = ['mcp-sweep.sarif', 'mcp-sweep.html'].filter((f) => !existsSync(join(root, 'merge', f)));
  if (!existsSync(summary) || !/5 servers from mcp-servers\.json/.test(readFileSync(summary, 'utf8')))
    missing.push('the step summary');
  if (missing.length) walked.problems.push(`docs/workflows/sweep.yml, merge: did not write ${missing.join(', ')}`);
  if (!walked.problems.length)
    walked.ran.push(
      `docs/workflows/sweep.yml: ${shards.length} shards of ${names.length} servers, one after the other, then the merge`,
    );
  return walked;
}
