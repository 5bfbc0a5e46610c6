import type { Finding } from '../src/generated/report.js';
import { listing } from '../src/text.js';

/** A finding as shown, with the findings of the same code on other tools folded into it. */
export interface Entry {
  finding: Finding;
  /** The same code, the same level, on other tools (empty when shown alone). */
  others: Finding[];
}

/** Fewer findings than this of one code are shown one by one. */
const GROUP_FROM = 3;

/**
 * Folds the findings of one check that share a code and a level and sit on different tools into
 * one entry (in report order), so that one problem found on 14 tools reads as one; `verbose`
 * lists every finding on its own. Lint findings (files) are never folded: each has its own line.
 */
export function entries(findings: readonly Finding[], verbose = false): Entry[] {
  if (verbose) return findings.map((finding) => ({ finding, others: [] }));
  const key = (f: Finding) => (f.location?.tool !== undefined && !f.location.file ? `${f.code}\0${f.level}\0${f.accepted ? 1 : 0}` : undefined);
  const counts = new Map<string, number>();
  for (const f of findings) {
    const k = key(f);
    if (k) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const groups = new Map<string, Entry>();
  const out: Entry[] = [];
  for (const f of findings) {
    const k = key(f);
    if (!k || counts.get(k)! < GROUP_FROM) {
      out.push({ finding: f, others: [] });
      continue;
    }
    const group = groups.get(k);
    if (group) group.others.push(f);
    else {
      const entry = { finding: f, others: [] };
      groups.set(k, entry);
      out.push(entry);
    }
  }
  return out;
}

/** "the same on 12 more tools: 'write_file', 'edit_file' … and 4 more" */
export function othersLine(entry: Entry, max = 8): string {
  const tools = [...new Set(entry.others.map((f) => f.location?.tool ?? '?'))];
  return `the same on ${tools.length} more tool${tools.length === 1 ? '' : 's'}: ${listing(tools, max)}`;
}
