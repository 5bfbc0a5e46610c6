import { LIVE_CHECKS } from '../checks/index.js';
import type { LiveOptions } from './context.js';
import { discover } from './discovery.js';
import type { CheckReport, ReportOptions } from './generated/report.js';
import { buildReport } from './report.js';
import { plannedOpens, runLiveChecks, type LiveCheck, type RunHooks } from './runner.js';
import type { Target } from './target/target.js';

/**
 * The core of a live run, with no printing and no exit codes: probe the target, run the checks,
 * return the report. Throws TargetUnavailableError when the target cannot be started or reached.
 */
export async function checkTarget(
  target: Target,
  options: LiveOptions,
  extra: { checks?: readonly LiveCheck[]; hooks?: RunHooks; reportOptions?: ReportOptions } = {},
): Promise<CheckReport> {
  const startedAt = new Date();
  const t0 = performance.now();
  const checks = extra.checks ?? LIVE_CHECKS;
  try {
    // Sessions the checks will need start warming while the probe runs.
    target.reserve(plannedOpens(checks, options));
    const { discovery, session } = await discover(target);
    try {
      const results = await runLiveChecks(checks, target, discovery, session, options, extra.hooks);
      return buildReport({
        target: {
          kind: target.kind,
          ...(target.kind === 'stdio' ? { command: target.describe } : { url: target.describe }),
          ...(discovery.serverInfo ? { serverInfo: discovery.serverInfo } : {}),
          ...(discovery.protocolVersion ? { protocolVersion: discovery.protocolVersion } : {}),
        },
        startedAt,
        durationMs: performance.now() - t0,
        results,
        options: extra.reportOptions,
      });
    } finally {
      await session.close();
    }
  } finally {
    await target.dispose();
  }
}
