// What changed between a lock file and the server now, as data: tools added, removed or changed
// (and what in them), per protocol era, with the token figures before and after. A change found
// alike in every era is one change naming its eras. Rendered in src/lock/render-*.ts.
import type { EraSurface, LockedTool, ToolLock } from './lock-file.js';
import { formatNumber } from '../util/text.js';

/** One thing that changed in a tool. */
export type ToolChange =
  | { field: 'description' | 'title' | 'fullDescription'; before: string; after: string }
  | { field: 'annotations'; flips: Array<{ hint: string; before?: unknown; after?: unknown }> }
  | {
      field: 'inputSchema' | 'fullSchema';
      added: string[];
      removed: string[];
      changed: string[];
      requiredAdded: string[];
      requiredRemoved: string[];
    }
  | { field: 'outputSchema'; before?: string; after?: string }
  | { field: 'full'; before?: number; after?: number }
  | { field: 'other' };

export interface Tokens {
  before?: number;
  after?: number;
}

export type SurfaceChange =
  | { kind: 'era-added' | 'era-removed'; eras: string[] }
  | { kind: 'tool-added'; eras: string[]; tool: string; listed: Tokens; full?: Tokens }
  | { kind: 'tool-removed'; eras: string[]; tool: string; listed: Tokens; full?: Tokens }
  | { kind: 'tool-changed'; eras: string[]; tool: string; what: ToolChange[]; listed: Tokens; full?: Tokens };

/** One era's totals before and after. */
export interface EraTotals {
  era: string;
  tools: Tokens;
  listed: Tokens;
  full?: Tokens;
}

export interface LockDiff {
  same: boolean;
  changes: SurfaceChange[];
  totals: EraTotals[];
  /** The server's name, when the lock's and the server's differ: perhaps the lock of another server. */
  server?: { locked?: string; now?: string };
}

export function diffLocks(locked: ToolLock, now: ToolLock): LockDiff {
  const changes: SurfaceChange[] = [];
  const totals: EraTotals[] = [];
  const eras = [...new Set([...Object.keys(locked.eras), ...Object.keys(now.eras)])].sort();
  for (const era of eras) {
    const before = locked.eras[era];
    const after = now.eras[era];
    if (!before || !after) {
      changes.push({ kind: before ? 'era-removed' : 'era-added', eras: [era] });
      continue;
    }
    changes.push(...eraChanges(era, before, after));
    if (JSON.stringify(before.totals) !== JSON.stringify(after.totals)) totals.push(eraTotals(era, before, after));
  }
  const merged = mergeAcrossEras(changes);
  const renamed = (locked.server ?? '') !== (now.server ?? '');
  return {
    same: merged.length === 0 && !renamed,
    changes: merged,
    totals,
    ...(renamed
      ? { server: { ...(locked.server ? { locked: locked.server } : {}), ...(now.server ? { now: now.server } : {}) } }
      : {}),
  };
}

function eraChanges(era: string, before: EraSurface, after: EraSurface): SurfaceChange[] {
  const out: SurfaceChange[] = [];
  const names = [...new Set([...Object.keys(before.tools), ...Object.keys(after.tools)])].sort();
  for (const tool of names) {
    const b = before.tools[tool];
    const a = after.tools[tool];
    if (!b)
      out.push({
        kind: 'tool-added',
        eras: [era],
        tool,
        listed: { after: a!.tokens },
        ...(a!.full ? { full: { after: a!.full.tokens } } : {}),
      });
    else if (!a)
      out.push({
        kind: 'tool-removed',
        eras: [era],
        tool,
        listed: { before: b.tokens },
        ...(b.full ? { full: { before: b.full.tokens } } : {}),
      });
    else {
      const what = toolChanges(b, a);
      if (what.length)
        out.push({
          kind: 'tool-changed',
          eras: [era],
          tool,
          what,
          listed: { before: b.tokens, after: a.tokens },
          ...(b.full || a.full ? { full: { before: b.full?.tokens, after: a.full?.tokens } } : {}),
        });
    }
  }
  return out;
}

/** What changed in one tool; nothing when its listed definition and full description are as locked. */
export function toolChanges(b: LockedTool, a: LockedTool): ToolChange[] {
  const what: ToolChange[] = [];
  if (b.digest !== a.digest) {
    if (b.description !== a.description)
      what.push({ field: 'description', before: b.description, after: a.description });
    if ((b.title ?? '') !== (a.title ?? '')) what.push({ field: 'title', before: b.title ?? '', after: a.title ?? '' });
    const flips = annotationFlips(b.annotations ?? {}, a.annotations ?? {});
    if (flips.length) what.push({ field: 'annotations', flips });
    if (b.inputSchema.digest !== a.inputSchema.digest)
      what.push(schemaChange('inputSchema', b.inputSchema, a.inputSchema));
    if (b.outputSchema !== a.outputSchema)
      what.push({
        field: 'outputSchema',
        ...(b.outputSchema ? { before: b.outputSchema } : {}),
        ...(a.outputSchema ? { after: a.outputSchema } : {}),
      });
    // The digest covers every field; one none of the above names (_meta, icons…) changed.
    if (!what.length) what.push({ field: 'other' });
  }
  if (b.full?.digest !== a.full?.digest) what.push(...fullChanges(b.full, a.full));
  return what;
}

/** What changed in a full description: its text as a word diff, its parameters, else its digest alone. */
function fullChanges(b: LockedTool['full'], a: LockedTool['full']): ToolChange[] {
  if (!b || !a) return [{ field: 'full', ...(b ? { before: b.tokens } : {}), ...(a ? { after: a.tokens } : {}) }];
  const what: ToolChange[] = [];
  if ((b.description ?? '') !== (a.description ?? ''))
    what.push({ field: 'fullDescription', before: b.description ?? '', after: a.description ?? '' });
  if (b.inputSchema?.digest !== a.inputSchema?.digest)
    what.push(
      schemaChange(
        'fullSchema',
        b.inputSchema ?? { digest: '', properties: {} },
        a.inputSchema ?? { digest: '', properties: {} },
      ),
    );
  // Examples, guidance and the like are in clear nowhere: said with the tokens.
  if (!what.length) what.push({ field: 'full', before: b.tokens, after: a.tokens });
  return what;
}

function annotationFlips(
  b: Record<string, unknown>,
  a: Record<string, unknown>,
): Array<{ hint: string; before?: unknown; after?: unknown }> {
  return [...new Set([...Object.keys(b), ...Object.keys(a)])]
    .sort()
    .filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]))
    .map((hint) => ({ hint, ...(hint in b ? { before: b[hint] } : {}), ...(hint in a ? { after: a[hint] } : {}) }));
}

function schemaChange(
  field: 'inputSchema' | 'fullSchema',
  b: LockedTool['inputSchema'],
  a: LockedTool['inputSchema'],
): ToolChange {
  const bp = b.properties;
  const ap = a.properties;
  const br = new Set(b.required ?? []);
  const ar = new Set(a.required ?? []);
  return {
    field,
    added: Object.keys(ap).filter((p) => !(p in bp)),
    removed: Object.keys(bp).filter((p) => !(p in ap)),
    changed: Object.keys(ap).filter((p) => p in bp && bp[p] !== ap[p]),
    requiredAdded: [...ar].filter((p) => !br.has(p)),
    requiredRemoved: [...br].filter((p) => !ar.has(p)),
  };
}

function eraTotals(era: string, b: EraSurface, a: EraSurface): EraTotals {
  return {
    era,
    tools: { before: b.totals.tools, after: a.totals.tools },
    listed: { before: b.totals.listedTokens, after: a.totals.listedTokens },
    ...(b.totals.fullTokens !== undefined || a.totals.fullTokens !== undefined
      ? { full: { before: b.totals.fullTokens, after: a.totals.fullTokens } }
      : {}),
  };
}

/** The same change in several eras, said once with every era it was found in. */
function mergeAcrossEras(changes: SurfaceChange[]): SurfaceChange[] {
  const byKey = new Map<string, SurfaceChange>();
  for (const change of changes) {
    const key = JSON.stringify({ ...change, eras: undefined });
    const seen = byKey.get(key);
    if (seen) seen.eras.push(...change.eras);
    else byKey.set(key, { ...change, eras: [...change.eras] });
  }
  return [...byKey.values()];
}

/** "+12" or "−3" (or "±0"): a delta as a reviewer reads it. */
export function delta(t: Tokens): string {
  const d = (t.after ?? 0) - (t.before ?? 0);
  return d > 0 ? `+${formatNumber(d)}` : d < 0 ? `−${formatNumber(-d)}` : '±0';
}
