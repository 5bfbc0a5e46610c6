#!/usr/bin/env node
/**
 * The GitHub Action's entry (action.yml runs it): turns the action's inputs (INPUT_* variables)
 * into an mcp-pd-check command line, adds the step summary, and exits with the checker's code.
 * It uploads nothing by itself: a SARIF file can be uploaded by github/codeql-action/upload-sarif.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as shellParse } from 'shell-quote';


function words(text: string): string[] {
  const parsed = shellParse(text, (key) => process.env[key] ?? '');
  if (parsed.some((p) => typeof p !== 'string')) throw new Error(`shell operators are not supported in '${text}'`);
  return parsed as string[];
}

/** The mcp-pd-check arguments for the action's inputs. */
export function actionArgs(env: NodeJS.ProcessEnv = process.env): string[] {
  const get = (n: string) => (env[`INPUT_${n.toUpperCase()}`] ?? '').trim();
  const args: string[] = ['--format', get('format') || 'github', '--fail-on', get('fail-on') || 'error'];
  if (env.GITHUB_STEP_SUMMARY) args.push('--report', `markdown=${env.GITHUB_STEP_SUMMARY}`);
  if (get('sarif')) args.push('--report', `sarif=${get('sarif')}`);
  if (get('baseline')) args.push('--baseline', get('baseline'));
  args.push(...words(get('args')));
  const lint = get('lint');
  if (lint) return ['lint', ...args, ...words(lint)];
  if (get('config')) args.push('--config', get('config'));
  if (get('url')) return [...args, '--url', get('url')];
  // A config file names the server itself (its command or url).
  if (!get('command') && get('config')) return args;
  if (!get('command')) throw new Error("give the action 'command' (a server command), 'url', 'config' (a mcp-pd-check.config.json) or 'lint' (paths)");
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
  // Committed bundle (src/action/bundle/): the CLI beside it; built sources: dist/src/cli/main.js.
  const here = dirname(fileURLToPath(import.meta.url));
  const cli = existsSync(join(here, 'cli.js')) ? join(here, 'cli.js') : join(here, '..', 'cli', 'main.js');
  const run = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
