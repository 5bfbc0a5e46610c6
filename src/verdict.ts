import type { LiveCheck } from './check.js';
import type { Discovery } from './discovery.js';
import type { CheckResult, TokenFigures, Verdict } from './generated/report.js';
import type { CallLedger } from './pd/call-ledger.js';
import type { ResolvedResource } from './pd/run-state.js';
import { formatArg } from './messages.js';

/** The token figures of pd-token-savings' findings (read by code: codes are the contract). */
function tokenFigures(results: CheckResult[]): TokenFigures | undefined {
  const findings = results.find((r) => r.id === 'pd-token-savings')?.findings ?? [];
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const measured = findings.filter((f) => f.code === 'tool-tokens');
  const estimated = findings.filter((f) => f.code === 'tool-cost');
  const total = findings.find((f) => f.code === 'total-tokens' || f.code === 'list-cost');
  if (!total) return undefined;
  const perTool = (measured.length ? measured : estimated).map((f) => ({
    tool: String(f.args.tool),
    listed: num(f.args.listed) ?? 0,
    ...(num(f.args.full) !== undefined ? { full: num(f.args.full) } : {}),
    ...(num(f.args.estimate) !== undefined ? { estimate: num(f.args.estimate) } : {}),
  }));
  return {
    encoding: String(total.args.encoding),
    listed: num(total.args.listed) ?? 0,
    ...(num(total.args.full) !== undefined ? { full: num(total.args.full) } : {}),
    ...(num(total.args.estimate) !== undefined ? { estimate: num(total.args.estimate) } : {}),
    tools: perTool,
  };
}

/** The token figures in one sentence. */
function tokenSentence(t: TokenFigures | undefined): string {
  if (!t) return '';
  const n = `${formatArg(t.tools.length)} tool${t.tools.length === 1 ? '' : 's'}`;
  if (t.estimate !== undefined) return ` ${n} cost ${formatArg(t.listed)} tokens in every prompt; listed minimally ≈ ${formatArg(t.estimate)}.`;
  if (t.full !== undefined) {
    const saved = t.full > 0 ? Math.round((1 - t.listed / t.full) * 100) : 0;
    return ` tools/list costs ${formatArg(t.listed)} tokens for ${n}; their full descriptions ${formatArg(t.full)} (${saved} % saved).`;
  }
  return '';
}

/**
 * Does the server implement progressive disclosure? `yes` when the nine criteria pass (a SHOULD
 * may warn), `no` when it lists no tool_descriptions resource and refused no unfetched call,
 * else `partly`, naming what fails. Undefined when no criterion was run (--only).
 */
export function verdictOf(checks: readonly LiveCheck[], results: CheckResult[], discovery: Discovery, calls: CallLedger, resource?: ResolvedResource): Verdict | undefined {
  const criteria = checks.filter((c) => c.spec.criterion !== undefined);
  const ran = results.filter((r) => criteria.some((c) => c.id === r.id));
  if (!ran.length) return undefined;
  const failing = ran.filter((r) => r.status === 'fail' || r.status === 'error').map((r) => r.id);
  const notTestable = ran.filter((r) => r.status === 'skip' && r.findings.some((f) => f.code === 'not-testable')).map((r) => r.id);
  const tokens = tokenFigures(results);
  const notCalled = [...calls.notCalled].map(([tool, why]) => ({ tool, why }));
  const extra = { failing, notTestable, ...(resource ? { resource } : {}), ...(tokens ? { tokens } : {}), ...(notCalled.length ? { notCalled } : {}) };
  const unlisted = resource && resource.source !== 'listed'
    ? ` The resource works at ${resource.uri} (${resource.source === 'refusal' ? "named by a refusal's resource_uri" : "the spec's default URI"}), but resources/list does not list it; the other criteria were tested against it.`
    : '';

  if (!resource && !discovery.descriptionsResource && calls.refusals === 0) {
    const ran = calls.ranUnfetched ? `, and calling '${calls.ranUnfetched}' without fetching its description was not refused` : '';
    return { implements: 'no', summary: `No: this server does not implement progressive disclosure — it lists no tool_descriptions resource${ran}.${tokenSentence(tokens)}`, ...extra };
  }
  if (!failing.length && ran.length === 9) {
    return { implements: 'yes', summary: `Yes: all nine progressive-disclosure criteria pass.${tokenSentence(tokens)}`, ...extra };
  }
  const named = ran.filter((r) => failing.includes(r.id)).map((r) => `${r.id} (#${r.spec.criterion})`);
  const why = failing.length ? `${failing.length} of ${ran.length} criteria fail: ${named.join(', ')}` : `${ran.length} of 9 criteria were run, and they pass`;
  return { implements: 'partly', summary: `Partly: ${why}.${unlisted}${tokenSentence(tokens)}`, ...extra };
}
