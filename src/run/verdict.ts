import type { LiveCheck } from './check.js';
import type { Discovery } from './discovery.js';
import type { CheckResult, ClientBudgets, SelectionFigures, TokenFigures } from '../generated/report.js';
import type { VerdictData } from '../core/verdict-sentence.js';
import type { CallLedger } from './call-ledger.js';
import type { ResolvedResource } from './facts.js';
import { CLIENTS } from '../core/client-reach.js';
import { CRITERION } from '../model/world.js';

/**
 * Does the server implement progressive disclosure? `yes` when the nine criteria pass, each proven
 * (a SHOULD may warn), `no` when it lists no tool_descriptions resource and refused no unfetched call,
 * else `partly`, naming what fails. Undefined when no criterion was run (--only).
 */
export function verdictOf(
  checks: readonly LiveCheck[],
  results: CheckResult[],
  discovery: Discovery,
  calls: CallLedger,
  resource?: ResolvedResource,
  barred: readonly string[] = [],
): VerdictData | undefined {
  const criteria = checks.filter((c) => c.spec.criterion !== undefined);
  const ran = results.filter((r) => criteria.some((c) => c.id === r.id));
  if (!ran.length) return undefined;
  // Only what was proven fails: a check that could not finish (the run's time, a crash) proved nothing.
  const failed = ran.filter((r) => r.status === 'fail');
  const failing = failed.map((r) => r.id);
  const failingCriteria = failed.map((r) => r.spec.criterion ?? 0);
  // Every check the missing resource leaves untested (the criteria, and the tool form's).
  const notTestable = results
    .filter((r) => r.status === 'skip' && r.findings.some((f) => f.code === 'not-testable'))
    .map((r) => r.id);
  const notApplicable = ran
    .filter((r) => r.status === 'skip' && r.findings.some((f) => f.code === 'not-applicable-era'))
    .map((r) => r.id);
  // Left without proof (nothing the run saw shows the rule holds, or the check could not finish):
  // said, never counted as failing, never a pass.
  const unproven = ran.flatMap((r) => {
    if (r.status === 'skip' && !notTestable.includes(r.id) && !notApplicable.includes(r.id)) {
      const f = r.findings.find((x) => x.code === 'unproven');
      if (f)
        return [{ id: r.id, why: `${String(f.args.what)} got no answer (${String(f.args.note).replace(/;.*$/, '')})` }];
      const said = [...r.findings].reverse().find((x) => x.level === 'info');
      // The reason only, without what it left unshown ("…, so nothing showed …"): criteria with the same reason are
      // said together.
      return [
        {
          id: r.id,
          why: (said?.message ?? 'nothing the run saw proves it')
            .replace(/^Not proven: /, '')
            .replace(/, so (nothing|no) .*$/, '')
            .replace(/\.$/, ''),
        },
      ];
    }
    const cut = r.status === 'error' ? r.findings.find((x) => x.level === 'error') : undefined;
    return cut ? [{ id: r.id, why: cut.message.replace(/\.$/, '').replace(/^Not run: /, 'not run: ') }] : [];
  });
  // The figures are the token check's to read from its own findings: its definition says how.
  const tokens = checks
    .map((c) => c.tokenFigures?.(results.find((r) => r.id === c.id)))
    .find((t): t is TokenFigures => t !== undefined);
  const selection = checks
    .map((c) => c.selectionFigures?.(results.find((r) => r.id === c.id)))
    .find((x): x is SelectionFigures => x !== undefined);
  const budgets = checks
    .map((c) => c.clientBudgets?.(results.find((r) => r.id === c.id)))
    .find((x): x is ClientBudgets => x !== undefined);
  // Said per tool, from the ledger (and the tools --safe-calls barred): a tool any part of the run called is never
  // among them.
  const notCalled = calls.neverCalled(barred);
  const data = {
    failing,
    failingCriteria,
    notTestable,
    criteriaRun: ran.length,
    ...(unproven.length ? { unproven } : {}),
    ...(notApplicable.length ? { notApplicable, era: discovery.era } : {}),
    ...(resource ? { resource } : {}),
    ...(tokens ? { tokens } : {}),
    ...(selection ? { selection } : {}),
    ...(budgets ? { budgets } : {}),
    ...(notCalled.length ? { notCalled } : {}),
  };
  // Which clients that reaches: those whose model reads resources, and the others through the tool form.
  const form = discovery.descriptionsTool?.name;
  const formResult = form ? results.find((r) => r.id === CRITERION.toolForm) : undefined;
  const reach = {
    readsResources: CLIENTS.filter((c) => c.readsResources).map((c) => c.client),
    toolsOnly: CLIENTS.filter((c) => !c.readsResources).map((c) => c.client),
    // Whether it works is said only when pd-descriptions-tool came to a verdict (not when the run's time cut it, or it
    // was not proven).
    ...(form
      ? {
          toolForm: form,
          ...(formResult === undefined || (formResult.status !== 'error' && formResult.status !== 'skip')
            ? {
                toolFormWorks: formResult === undefined || formResult.status === 'pass' || formResult.status === 'warn',
              }
            : {}),
        }
      : {}),
  };
  if (!resource && !discovery.descriptionsResource && calls.refusals === 0) {
    return { implements: 'no', ...data, ...(calls.ranUnfetched ? { unfetchedCallRan: calls.ranUnfetched } : {}) };
  }
  // Yes is said only of what was proven: a criterion left unproven keeps it at partly (no failure).
  return { implements: !failing.length && !unproven.length && ran.length === 9 ? 'yes' : 'partly', ...data, reach };
}
