import { defaultChecks } from '../src/library/check-selection.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { addFormats } from '../src/util/schema.js';
import type { CheckReport } from '../src/generated/report.js';

/**
 * tap loads its process tracker into every node child: through NODE_OPTIONS, and through a hook
 * on every spawn (process-on-spawn, whose listeners live on a global). Each CLI run (and each
 * server a test starts) would load it too — measured, a run then takes 2.3 times as long, and the
 * suite twice as long. The children of a test are what it tests, not tap's: they start clean.
 */
for (const key of Object.keys(process.env)) {
  if (key === 'NODE_OPTIONS' || key.startsWith('_TAPJS_PROCESSINFO')) delete process.env[key];
}
const spawnHooks = (globalThis as unknown as Record<symbol, { listeners: unknown[] } | undefined>)[
  Symbol.for('process-on-spawn@*:singletonId')
];
if (spawnHooks) spawnHooks.listeners = [];

/** Tests run compiled, from dist/test/. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The CLI as it ships: the bundle (dist/cli), built from dist/src/cli/main.js. */
export const CLI = join(ROOT, 'dist', 'cli', 'cli.js');
export const REFERENCE = join(ROOT, 'dist', 'reference-server', 'bundle.js');
export const FIXTURE_SOURCES = join(ROOT, 'fixtures', 'servers');

export function fixtureBundle(name: string): string {
  return join(ROOT, 'dist', 'fixtures', 'servers', `${name}.bundle.js`);
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs the built CLI as a user would, never a TTY; `env` adds to (or, with undefined, removes from) the environment.
 */
export function runCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; cwd?: string } = {},
): Promise<CliRun> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: env,
      cwd: options.cwd ?? ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

/** A full JSON run of the checker against a server command. */
export async function checkJson(
  serverArgs: string[],
  extra: string[] = [],
): Promise<{ run: CliRun; report: CheckReport }> {
  const run = await runCli(['--format', 'json', ...extra, '--', ...serverArgs]);
  let report: CheckReport;
  try {
    report = JSON.parse(run.stdout) as CheckReport;
  } catch {
    throw new Error(`no JSON report (exit ${run.code}): ${run.stderr.slice(0, 500)}`);
  }
  return { run, report };
}

let reportValidator: ReturnType<Ajv2020['compile']> | undefined;

/** Validates a report against the shipped schemas/report.schema.json; returns the errors. */
export function reportSchemaErrors(report: unknown): string[] {
  if (!reportValidator) {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    reportValidator = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'report.schema.json'), 'utf8')));
  }
  return reportValidator(report) ? [] : (reportValidator.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

const madeDirs: string[] = [];

/** A fresh folder in the OS temp folder, removed when this test process exits (the suite leaves none behind). */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-pd-check-test-'));
  if (!madeDirs.length)
    process.on('exit', () => {
      for (const made of madeDirs) rmSync(made, { recursive: true, force: true, maxRetries: 3 });
    });
  madeDirs.push(dir);
  return dir;
}

export const ESC = '\u001b[';

export interface RunningServer {
  url: string;
  /** Its process. */
  pid?: number;
  /** What it has written to stderr so far (where kept). */
  stderr?: () => string;
  stop: () => Promise<void>;
}

/** Starts a server bundle with --http 0 (a port the OS picks, on 127.0.0.1) and waits for its URL. */
export function startHttp(bundle: string, env: Record<string, string> = {}): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, '--http', '0'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    // A hang guard, not a race: a busy machine may take seconds to start a node process.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no URL from ${bundle}: ${out}`));
    }, 120_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1],
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${bundle} exited (${code}) before listening: ${out}`));
    });
  });
}

/** What a check that passes against a conforming server reports over stdio (Tool Cards need HTTP or --cards). */
/**
 * Every check a default run runs, in order: ours, then the default plugins' (the quality rules),
 * and every lint check a default lint runs.
 */
export const DEFAULT_CHECKS = defaultChecks();

export function cleanStatusOverStdio(id: string, era?: string): 'pass' | 'skip' {
  const check = DEFAULT_CHECKS.live.find((c) => c.id === id);
  const outOfEra = era !== undefined && check?.eras !== undefined && !check.eras.includes(era as never);
  return id === 'toolcard-files' || check?.needs === 'http' || outOfEra ? 'skip' : 'pass';
}

/** The Tool Card files of the reference server. */
export const REFERENCE_CARDS = join(ROOT, 'reference-server', '.well-known', 'mcp-tools');

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** `serve --listen 0` (CLI bundle) as a process; resolves with its URL once it listens. */
export async function serveListening(args: string[], env: Record<string, string> = {}): Promise<RunningServer> {
  const child = spawn(process.execPath, [CLI, 'serve', '--listen', '0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  let said = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(said);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${said}`)));
  });
  return {
    url,
    ...(child.pid !== undefined ? { pid: child.pid } : {}),
    stderr: () => said,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
