// Where the findings of a live run are located in SARIF. GitHub code scanning rejects a whole upload
// when a result has no physicalLocation.artifactLocation.uri (logical locations alone are refused),
// and a server has no file of its own in a live run: the alerts go to the file that names the server
// in the repository — its config, else its entry point, else the workflow that checks it, else the
// config `init` writes (README, "CI": the same rule). Paths are relative to the working directory
// (the repository's root in CI), with forward slashes.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ReportTarget } from '../generated/report.js';
import { DEFAULT_CONFIG } from '../library/option-table.js';

/** What a live run's SARIF results point at: a repository-relative file. */
export function liveArtifact(
  target: ReportTarget,
  configFile?: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string {
  if (configFile) return repositoryPath(configFile, cwd);
  // The server's entry point: the first word of its command that is a file here (node dist/server.js).
  for (const word of (target.command ?? '').split(/\s+/).slice(1)) {
    const path = word.replace(/^['"]|['"]$/g, '');
    if (!path || path.startsWith('-') || /^[a-z][\w+.-]*:/i.test(path)) continue;
    const file = resolve(cwd, path);
    // A file of the repository only (the working directory's tree): code scanning knows no other.
    if (existsSync(file) && statSync(file).isFile() && !relative(cwd, file).startsWith('..'))
      return repositoryPath(file, cwd);
  }
  // In GitHub Actions: the workflow file (GITHUB_WORKFLOW_REF is owner/repo/.github/workflows/x.yml@ref).
  const workflow = /^[^/]+\/[^/]+\/(.+?)@/.exec(env.GITHUB_WORKFLOW_REF ?? '')?.[1];
  if (workflow) return workflow;
  return DEFAULT_CONFIG;
}

/** A path as SARIF gives it: relative to the working directory, with forward slashes. */
export function repositoryPath(path: string, cwd = process.cwd()): string {
  const rel = isAbsolute(path) ? relative(cwd, path) : path;
  return rel.split(sep).join('/');
}
