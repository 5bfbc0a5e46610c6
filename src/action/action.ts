#!/usr/bin/env node
/**
 * The GitHub Action's entry (action.yml runs it): turns the action's inputs (INPUT_* variables)
 * into an mcp-pd-check command line, adds the step summary, and exits with the checker's code.
 * It uploads nothing by itself: a SARIF file can be uploaded by github/codeql-action/upload-sarif.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as shellParse } from 'shell-quote';

function words(text: string): string[] {
  const parsed = shellParse(text, (key) => process.env[key] ?? '');
  if (parsed.some((p) => typeof p !== 'string')) throw new Error(`shell operators are not supported in '${text}'`);
  return parsed as string[];
}

/** A workflow command's message: its own characters escaped, as the runner reads them. */
function commandText(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** What the action says beside the run (a baseline not there yet): workflow commands, one per line. */
export const notices: string[] = [];

/** The mcp-pd-check arguments for the action's inputs. */
export function actionArgs(env: NodeJS.ProcessEnv = process.env): string[] {
  const get = (n: string) => (env[`INPUT_${n.toUpperCase()}`] ?? '').trim();
  if (get('lock')) return lockArgs(get, env);
  const args: string[] = ['--format', get('format') || 'github', '--fail-on', get('fail-on') || 'error'];
  if (env.GITHUB_STEP_SUMMARY) args.push('--report', `markdown=${env.GITHUB_STEP_SUMMARY}`);
  if (get('sarif')) args.push('--report', `sarif=${get('sarif')}`);
  // A baseline named but not there yet (the first run): every finding gates, and the notice says how to write it.
  if (get('baseline') && !existsSync(get('baseline'))) {
    notices.push(
      `::notice title=mcp-pd-check::${commandText(`the baseline ${get('baseline')} does not exist yet, so this run gates every finding; to accept today's findings, run mcp-pd-check --update-baseline --baseline ${get('baseline')} with the same options and commit the file`)}`,
    );
  } else if (get('baseline')) args.push('--baseline', get('baseline'));
  for (const plugin of words(get('plugins'))) args.push('--plugin', plugin);
  args.push(...words(get('args')));
  const lint = get('lint');
  if (lint) return ['lint', ...args, ...words(lint)];
  if (get('config')) args.push('--config', get('config'));
  if (get('url')) return [...args, '--url', get('url')];
  // A config file names the server itself (its command or url).
  if (!get('command') && get('config')) return args;
  if (!get('command'))
    throw new Error(
      "give the action 'command' (a server command), 'url', 'config' (a mcp-pd-check.config.json) or 'lint' (paths)",
    );
  return [...args, '--', ...words(get('command'))];
}

/**
 * `lock`: the server checked against its lock file; the diff as annotations in the log and as Markdown in the step
 * summary.
 */
function lockArgs(get: (n: string) => string, env: NodeJS.ProcessEnv): string[] {
  const args = ['lock', '--check', get('lock'), '--format', get('format') || 'github'];
  if (env.GITHUB_STEP_SUMMARY) args.push('--report', `markdown=${env.GITHUB_STEP_SUMMARY}`);
  args.push(...words(get('args')));
  if (get('url')) return [...args, '--url', get('url')];
  if (!get('command'))
    throw new Error("lock needs the server: give the action 'command' (a server command) or 'url' beside 'lock'");
  return [...args, '--', ...words(get('command'))];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let args: string[];
  try {
    args = actionArgs();
  } catch (err) {
    process.stdout.write(`::error title=mcp-pd-check::${(err as Error).message}\n`);
    process.exit(2);
  }
  for (const notice of notices) process.stdout.write(`${notice}\n`);
  // Committed bundle (src/action/bundle/): the CLI beside it; built sources: dist/src/cli/main.js.
  const here = dirname(fileURLToPath(import.meta.url));
  const cli = existsSync(join(here, 'cli.js')) ? join(here, 'cli.js') : join(here, '..', 'cli', 'main.js');
  const run = spawnSync(process.execPath, [cli, ...args], { stdio: ['inherit', 'inherit', 'pipe'], encoding: 'utf8' });
  process.stderr.write(run.stderr ?? '');
  const code = run.status ?? 1;
  // A run that could not start (a usage error, a server that cannot be reached) is an error annotation and fills the
  // step summary: its one line would be lost in the log.
  if (code === 2 || code === 3) {
    const said =
      (run.stderr ?? '')
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('mcp-pd-check:'))
        .map((l) => l.replace(/^mcp-pd-check:\s*/, ''))
        .join(' ') || `mcp-pd-check ended with exit ${code}`;
    const what = code === 2 ? 'mcp-pd-check could not run (a usage error)' : 'mcp-pd-check could not reach the server';
    process.stdout.write(`::error title=mcp-pd-check::${commandText(`${what}: ${said}`)}\n`);
    if (process.env.GITHUB_STEP_SUMMARY)
      appendFileSync(
        process.env.GITHUB_STEP_SUMMARY,
        `## mcp-pd-check: ${what} (exit ${code})\n\n${said.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!)}\n`,
      );
  }
  process.exit(code);
}
