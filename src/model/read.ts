import { entryFor, isDescriptionEntry } from '../protocol/fetch.js';
import { isPlainObject, resourceJson } from '../protocol/payload.js';
import type { Exchange, JsonObject } from '../transport/types.js';
import { asText } from '../util/text.js';
import { resembled, type Resemblance } from './ops.js';
import { CRITERION, type RuleBreak, type World } from './world.js';

/** More names than this in one read may be refused (§10.3): such a refusal is no broken rule. */
export const NAMES_A_SERVER_MUST_TAKE = 20;

/** What one read of `?tools=` says, whatever the session's state. */
export interface ReadAnalysis {
  /** Refused (a JSON-RPC error, or no JSON object): it grants nothing. */
  refused: boolean;
  /**
   * No answer came (a timeout, a closed transport): it proves nothing, and whether the server took
   * it (and granted) is unknown: the tools it named are left open.
   */
  inconclusive?: boolean;
  problem?: string;
  /** Requested known tools whose description the answer carries (under whatever key): what it grants. */
  returned: Set<string>;
  /**
   * Tools described although not asked for (a wrong answer, criterion 3's or 4's finding): whether
   * they are granted is left open, and calls of them are not judged.
   */
  unasked: Set<string>;
  /** Each requested known tool (exact name): its description under its own key, only one level down, or absent. */
  presence: Map<string, 'keyed' | 'wrapped' | 'absent'>;
  /** Requested names that are no tool's (exact or trimmed). */
  unknown: string[];
  breaks: RuleBreak[];
}

const NEAR_CODE: Record<Resemblance, { code: string; arg: string }> = {
  case: { code: 'case-insensitive', arg: 'altered' },
  prefix: { code: 'prefix-match', arg: 'prefix' },
  suffix: { code: 'near-name-match', arg: 'name' },
  separator: { code: 'near-name-match', arg: 'name' },
  edit: { code: 'near-name-match', arg: 'name' },
  spaces: { code: 'near-name-match', arg: 'name' },
};

/**
 * The rules of a read naming tools (§4.3, §4.4, §6.3): exactly the known names as keys, a
 * description only under a listed name, a not-found entry for each unknown name; the read
 * grants exactly the known tools whose descriptions it returned.
 */
export function analyzeRead(world: World, items: string[], ex: Exchange): ReadAnalysis {
  // The same read is judged again and again (each judgement, each call's look at its session's
  // grants): once it is answered, its analysis is made once per world — with 10,000 tools, reads
  // of a hundred unknown names each carry 10,000 available_tools to compare.
  const settled = ex.response !== undefined || ex.noResponse !== undefined;
  const key = items.join('\u0000');
  const memo = settled ? ANALYSES.get(ex) : undefined;
  if (memo && memo.world === world && memo.key === key) return memo.analysis;
  const analysis = analyzeOnce(world, items, ex);
  if (settled) ANALYSES.set(ex, { world, key, analysis });
  return analysis;
}

/** Each answered read's analysis, for the world it was made in (analyses are never changed once made). */
const ANALYSES = new WeakMap<Exchange, { world: World; key: string; analysis: ReadAnalysis }>();

function analyzeOnce(world: World, items: string[], ex: Exchange): ReadAnalysis {
  const distinct = [...new Set(items)];
  const known = distinct.filter((n) => world.toolSet.has(n));
  const trimmed = distinct.filter((n) => !world.toolSet.has(n) && world.toolSet.has(n.trim()));
  const unknown = distinct.filter((n) => !world.toolSet.has(n) && !world.toolSet.has(n.trim()));
  const analysis: ReadAnalysis = {
    refused: false,
    returned: new Set(),
    unasked: new Set(),
    presence: new Map(),
    unknown,
    breaks: [],
  };
  if (ex.noResponse) {
    return {
      ...analysis,
      refused: true,
      inconclusive: true,
      problem: `no response (${ex.note ?? ex.noResponse})`,
      unasked: new Set([...known, ...trimmed.map((n) => n.trim())]),
    };
  }
  const payload = resourceJson(ex);
  const entries = isPlainObject(payload.value) ? payload.value : undefined;
  if (!entries) {
    analysis.refused = true;
    analysis.problem = payload.problem ?? 'JSON that is not an object';
    if (!isRateLimit(ex) && distinct.length <= NAMES_A_SERVER_MUST_TAKE) refusedRead(analysis, known, ex);
    return analysis;
  }
  const described = descriptionsIn(world, entries);
  const add = (b: Omit<RuleBreak, 'proof'>) => analysis.breaks.push({ ...b, proof: [ex] });
  for (const name of known) {
    const presence = isDescriptionEntry(entries[name])
      ? 'keyed'
      : described.has(name) || isDescriptionEntry(entryFor(entries, name))
        ? 'wrapped'
        : 'absent';
    analysis.presence.set(name, presence);
    if (presence !== 'absent') analysis.returned.add(name);
  }
  // Spaces around a name: trimmed or not, either answer is right (DESIGN).
  for (const name of trimmed)
    if (described.has(name.trim()) || isDescriptionEntry(entries[name])) analysis.returned.add(name.trim());
  const asked = new Set([...distinct, ...distinct.map((n) => n.trim())]);
  // Described tools nobody asked for: near names of the unknown ones (the names were not matched
  // exactly, criterion 3) — unless the answer holds more than those (it answers with too much, 4).
  const near = new Map(unknown.map((name) => [name, resembled(name, world.tools)] as const));
  const unaskedTools = [...described.keys()].filter((t) => !asked.has(t));
  const nearTools = new Set([...near.values()].flatMap((r) => (r ? [r.tool] : [])));
  const loose = unaskedTools.every((t) => nearTools.has(t));
  const explained = new Set<string>();
  for (const name of unknown) {
    const r = near.get(name);
    const under = entries[name];
    const tool = isDescriptionEntry(under)
      ? (r?.tool ?? describedName(world, under) ?? name)
      : loose && r && described.has(r.tool) && !distinct.includes(r.tool)
        ? r.tool
        : undefined;
    if (tool !== undefined) {
      const how = NEAR_CODE[r?.how ?? 'edit'];
      add({ check: CRITERION.names, code: how.code, args: { [how.arg]: name, tool }, level: 'fail', tool });
      if (world.toolSet.has(tool)) analysis.unasked.add(tool);
      explained.add(r?.tool ?? tool);
      continue;
    }
    notFoundEntry(world, analysis, name, entryFor(entries, name), ex);
  }
  // A read of unknown names only may answer with one not-found object: its shape is §6.3's business.
  const extra = Object.keys(entries).filter(
    (k) => !asked.has(k) && !explained.has(k) && (known.length > 0 || trimmed.length > 0 || world.toolSet.has(k)),
  );
  if (extra.length)
    add({ check: CRITERION.answer, code: 'extra-keys', args: { requested: distinct, keys: extra }, level: 'fail' });
  for (const tool of unaskedTools) if (!analysis.returned.has(tool)) analysis.unasked.add(tool);
  return analysis;
}

/** Known tools whose descriptions an answer carries: under their name, named inside, or one level down. */
function descriptionsIn(world: World, entries: JsonObject): Map<string, string> {
  const found = new Map<string, string>();
  const look = (object: JsonObject) => {
    for (const [key, value] of Object.entries(object)) {
      if (!isDescriptionEntry(value)) continue;
      const tool = world.toolSet.has(key) ? key : describedName(world, value);
      if (tool && !found.has(tool)) found.set(tool, key);
    }
  };
  look(entries);
  for (const value of Object.values(entries)) if (isPlainObject(value) && !isDescriptionEntry(value)) look(value);
  return found;
}

function describedName(world: World, entry: JsonObject): string | undefined {
  return typeof entry.name === 'string' && world.toolSet.has(entry.name) ? entry.name : undefined;
}

/** §6.3: an unknown name gets { error, available_tools } listing exactly the tools/list names. */
function notFoundEntry(world: World, analysis: ReadAnalysis, name: string, entry: unknown, ex: Exchange): void {
  const add = (code: string, args: Record<string, unknown>): void => {
    analysis.breaks.push({ check: CRITERION.unknown, code, args: { name, ...args }, level: 'fail', proof: [ex] });
  };
  if (!isPlainObject(entry)) {
    const keys = Object.keys((resourceJson(ex).value as JsonObject | undefined) ?? {});
    return add('no-entry', { keys: keys.length ? keys : 'none' });
  }
  if (typeof entry.error !== 'string' || !entry.error.trim()) add('no-error-text', {});
  if (!Array.isArray(entry.available_tools)) return add('no-available-tools', {});
  // Most servers list exactly the tools/list names, in its order: seen without a set of 10,000.
  if (
    entry.available_tools.length === world.tools.length &&
    entry.available_tools.every((n, i) => n === world.tools[i])
  )
    return;
  const listed = entry.available_tools.map(asText);
  const listedSet = new Set(listed);
  const hidden = listed.filter((n) => !world.toolSet.has(n));
  const missing = world.tools.filter((n) => !listedSet.has(n));
  if (hidden.length) add('reveals-hidden-tools', { tools: hidden });
  if (missing.length) add('omits-tools', { tools: missing });
}

/**
 * A refused read of names a server must take: ?tools=a and ?tools=a,b must work (§4.3); an unknown name must not spoil
 * known ones (§6.3).
 */
function refusedRead(analysis: ReadAnalysis, known: string[], ex: Exchange): void {
  const problem = analysis.problem!;
  const add = (check: string, code: string, args: Record<string, unknown>, tool?: string) =>
    analysis.breaks.push({ check, code, args, level: 'fail', tool, proof: [ex] });
  if (known.length && analysis.unknown.length)
    add(CRITERION.unknown, 'spoils-known', { tool: known[0], name: analysis.unknown[0], problem }, known[0]);
  else if (known.length === 1) add(CRITERION.names, 'single-fetch-failed', { tool: known[0], problem }, known[0]);
  else if (known.length > 1)
    add(CRITERION.names, 'multi-fetch-failed', { count: known.length, sample: known.slice(0, 3).join(','), problem });
  else if (analysis.unknown.length) add(CRITERION.unknown, 'fetch-failed', { name: analysis.unknown[0], problem });
}

/** A refusal that says it is a rate limit (§10.3): allowed, and it grants nothing. */
export function isRateLimit(ex: Exchange): boolean {
  const error = ex.response?.error;
  if (!isPlainObject(error)) return false;
  const data = isPlainObject(error.data) ? error.data : {};
  return /rate.?limit|too many requests/i.test(`${asText(error.message)} ${asText(data.code)}`) || 'retryAfter' in data;
}
