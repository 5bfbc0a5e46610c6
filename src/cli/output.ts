// Everything the CLI writes: the report (stdout or --output, plus --report files), one-line
// messages on stderr, the progress line. All of it masked by the run's redactor.
import { invocation } from './invocation.js';
import { writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { FORMAT_NAMES } from '../../reports/formats.js';
import { ProgressLine } from '../../reports/progress.js';
import type { CheckReport } from '../generated/report.js';
import { isDirectory } from '../util/files.js';
import { plural } from '../util/text.js';
import { safeLine, safeReport } from '../safety/output.js';
import { Redactor } from '../safety/redact.js';
import { TOOL_NAME } from '../util/version.js';
import type { OutputFlags } from './options.js';
import { UsageError } from './usage-error.js';

export class CliOutput {
  /** Masks this invocation's secrets: the environment's, then (once a run is prepared) its headers and env too. */
  redactor = Redactor.forRun();

  /** One line (or a few) on stderr: no secret, no CI command. */
  say(text: string): void {
    process.stderr.write(safeLine(text, this.redactor));
  }

  /** A whole rendered output, masked (no line rules: reports keep their layout). */
  mask(text: string): string {
    return this.redactor.text(text);
  }

  /** Text on stdout, masked. */
  print(text: string): void {
    process.stdout.write(safeLine(text, this.redactor));
  }

  progress(flags: Pick<OutputFlags, 'quiet'>): ProgressLine {
    return new ProgressLine(process.stderr, process.stderr.isTTY === true && !flags.quiet);
  }

  /** Writes the report where the flags say; a file that cannot be written never loses the run. */
  async emit(unsafe: CheckReport, flags: OutputFlags, extra: { artifact?: string } = {}): Promise<void> {
    const { REPORTERS } = await import('../../reports/index.js');
    const report = safeReport(unsafe, this.redactor);
    for (const [format, file] of reportTargets(flags)) {
      try {
        writeFileSync(file, REPORTERS[format](report, { color: false, verbose: flags.verbose, ...extra }));
      } catch (err) {
        this.say(`${TOOL_NAME}: could not write ${file} (${(err as Error).message})\n`);
      }
    }
    if (flags.badge) {
      const { renderBadge } = await import('../../reports/badge.js');
      try {
        writeFileSync(flags.badge, renderBadge(report));
      } catch (err) {
        this.say(`${TOOL_NAME}: could not write the badge ${flags.badge} (${(err as Error).message})\n`);
      }
    }
    const toFile = Boolean(flags.output);
    const color = flags.color && !toFile && process.stdout.isTTY === true && !process.env.NO_COLOR;
    // In a GitHub Actions log, a report on stdout is fenced off from the runner's command parser.
    const commandsOff = !toFile && process.env.GITHUB_ACTIONS === 'true' ? crypto.randomUUID() : undefined;
    const text = REPORTERS[flags.format](report, {
      color,
      commandsOff,
      verbose: flags.verbose,
      command: invocation().shell,
      ...extra,
    });
    if (!toFile) {
      process.stdout.write(text);
      return;
    }
    try {
      writeFileSync(flags.output!, text);
      const s = report.summary;
      this.say(
        `${TOOL_NAME}: ${s.passed} passed, ${s.failed} failed, ${plural(s.warnings, 'warning')}, ${s.skipped} skipped, ${plural(s.errors, 'error')}; report written to ${flags.output}\n`,
      );
    } catch (err) {
      // Never lose a finished run: print the report instead.
      process.stdout.write(text);
      this.say(
        `${TOOL_NAME}: could not write ${flags.output} (${(err as Error).message}); the report was printed instead\n`,
      );
    }
  }

  /**
   * A server that could not be checked leaves a JSON record where a JSON report was asked for (a
   * fleet report of one server and its reason, the form of --out-dir files), so that `merge` of a
   * matrix of single-server jobs counts it as not checked instead of never hearing of it. It is
   * named after its file, as merge names a server's report. Other formats get nothing: the
   * one-line message on stderr says it.
   */
  async emitUnchecked(target: string, why: string, flags: OutputFlags, durationMs: number): Promise<void> {
    const json = [
      ...reportTargets(flags)
        .filter(([format]) => format === 'json')
        .map(([, file]) => file),
      ...(flags.format === 'json' ? [flags.output ?? '-'] : []),
    ];
    if (!json.length) return;
    const { renderFleetJson } = await import('../../reports/fleet.js');
    const record = (name: string) =>
      this.mask(
        renderFleetJson(
          {
            file: '(server reports)',
            shape: 'reports',
            identity: { size: 1, digest: '', names: [name] },
            entries: [{ name, target, error: `cannot be checked: ${why}`, durationMs }],
          },
          undefined,
          { names: false },
        ),
      );
    for (const file of json) {
      if (file === '-') {
        process.stdout.write(record(target));
        continue;
      }
      try {
        writeFileSync(file, record(basename(file).replace(/\.json$/i, '')));
        this.say(`${TOOL_NAME}: ${file} says the server was not checked, and why (merge counts it so)\n`);
      } catch (err) {
        this.say(`${TOOL_NAME}: could not write ${file} (${(err as Error).message})\n`);
      }
    }
  }
}

/** `--report junit=out.xml` → [format, file]; checked before the run, so that no run is lost. */
export function reportTargets(flags: Pick<OutputFlags, 'report'>): Array<[string, string]> {
  return flags.report.map((spec) => {
    const eq = spec.indexOf('=');
    const format = spec.slice(0, eq);
    const file = spec.slice(eq + 1);
    if (eq <= 0 || !file) throw new UsageError(`--report expects FORMAT=FILE, e.g. junit=report.xml; got '${spec}'`);
    if (!(FORMAT_NAMES as readonly string[]).includes(format))
      throw new UsageError(`--report: unknown format '${format}' (choose from ${FORMAT_NAMES.join(', ')})`);
    if (!isDirectory(dirname(resolve(file))))
      throw new UsageError(`cannot write --report ${format}=${file}: the folder '${dirname(file)}' does not exist`);
    return [format, file];
  });
}

/** --output and --report files can be written: checked before a run, so that no run is lost. */
export function checkOutputPaths(flags: Pick<OutputFlags, 'output' | 'report' | 'badge'>): void {
  for (const [flag, file] of [
    ['--output', flags.output],
    ['--badge', flags.badge],
  ] as const) {
    if (file && !isDirectory(dirname(resolve(file))))
      throw new UsageError(`cannot write ${flag} '${file}': the folder '${dirname(file)}' does not exist`);
  }
  reportTargets(flags);
}
