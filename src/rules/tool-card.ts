import type { RuleProblem } from '../core/findings.js';
import type { ToolCard } from '../generated/tool-card.js';
import type { Messages } from '../core/messages.js';
import { isPlainObject } from '../protocol/payload.js';
import { asText } from '../util/text.js';
import { cardLevel, firstDifference } from './card-level.js';
import { schemaProblems } from './schema-problems.js';

const DAY_MS = 86_400_000;
const TOOL_CARD_SOURCE = 'mizcausevic-dev/mcp-tool-card-spec@88e136c';

/** Fields the upstream test vectors use where Tool Cards v0.1 has another name. */
export const CARD_ALIASES: Readonly<Record<string, string>> = {
  model: 'llm',
  log_locations: 'log_uri',
  passed: 'pass_rate',
};

/**
 * What makes a Tool Card right: the lint of card files and the live check of served cards run
 * these functions and report the same codes.
 */
export const TOOL_CARD_MESSAGES = {
  'no-audit': {
    message: `No 'audit' block: optional in the Tool Cards v0.1 text (followed here), but required by the published schema ${TOOL_CARD_SOURCE}.`,
    hint: 'Add "audit": { "log_uri": …, "retention_days": … } so that both readings accept the card.',
  },
  'card-level': "Tool Card '{tool}': conformance level {why}.",
  'destructive-without-approval': {
    message:
      "side_effect_class is 'destructive' but human_approval_required is not true; a destructive tool must require human approval.",
    hint: 'Set "human_approval_required": true (or reclassify the tool if it is not destructive).',
  },
  'p50-above-p99': {
    message:
      'performance.p50_latency_ms ({p50}) is above p99_latency_ms ({p99}); a median cannot exceed the 99th percentile.',
    hint: 'Check whether the two values were swapped.',
  },
  'tested-in-future': {
    message: 'tested_with[{index}].tested_at ({at}) lies in the future.',
    hint: 'Record when the test actually ran.',
  },
  'card-name-mismatch': {
    message: "The card describes '{name}', but it is the card of '{expected}' ({why}).",
    hint: "Set tool.name to '{expected}': cards are served at /.well-known/mcp-tools/<tool>.json.",
  },
  'input-schema-drift': {
    message: "The card's input_schema_inline disagrees with {against} at '{at}'.",
    hint: 'Generate the card and the tool from one schema, or copy the inputSchema into the card.',
  },
} as const satisfies Messages;

/**
 * A card against the tool it describes: the name it must carry (its file name, or the tool whose
 * card URL served it) and the tool's real inputSchema (`against` says whose, for the message).
 */
export function cardIdentityProblems(
  value: unknown,
  tool: { name?: { expected: string; why: string }; inputSchema?: unknown; against?: string },
): RuleProblem[] {
  if (!isPlainObject(value)) return [];
  const card = value as unknown as ToolCard;
  const problems: RuleProblem[] = [];
  const name = card.tool?.name;
  if (tool.name && typeof name === 'string' && name !== tool.name.expected) {
    problems.push({
      code: 'card-name-mismatch',
      pointer: '/tool/name',
      args: { name, expected: tool.name.expected, why: tool.name.why },
      level: 'fail',
    });
  }
  const inline = card.schema?.input_schema_inline;
  if (isPlainObject(inline) && isPlainObject(tool.inputSchema)) {
    const at = firstDifference(inline, tool.inputSchema);
    if (at !== undefined)
      problems.push({
        code: 'input-schema-drift',
        pointer: `/schema/input_schema_inline${at}`,
        args: { at: at || '/', against: tool.against ?? 'the tool' },
        level: 'fail',
      });
  }
  return problems;
}

/** The shape: the shipped Tool Card schema, plus the audit block the upstream schema requires. */
export function toolCardShape(card: unknown): RuleProblem[] {
  const problems = schemaProblems('tool-card', card, { aliases: CARD_ALIASES });
  if (isPlainObject(card) && !('audit' in card))
    problems.push({ code: 'no-audit', pointer: '', args: {}, level: 'warn' });
  return problems;
}

/** The rules beyond the shape: the level, destructive ⇒ approval, plausible figures and dates. */
export function toolCardRules(value: unknown, now: Date): RuleProblem[] {
  if (!isPlainObject(value)) return [];
  const card = value as unknown as ToolCard;
  // Unknown fields are only warnings, so they do not cost a card its level.
  const valid = schemaProblems('tool-card', card).every((p) => p.level !== 'fail');
  const { level, why } = cardLevel(card, valid, now);
  const problems: RuleProblem[] = [
    {
      code: 'card-level',
      pointer: '',
      args: {
        tool: asText(card.tool?.name ?? '?'),
        level,
        why: level === 'none' ? `${why} (see its schema findings)` : why,
      },
      level: 'info',
    },
  ];
  if (card.safety?.side_effect_class === 'destructive' && card.safety.human_approval_required !== true) {
    problems.push({
      code: 'destructive-without-approval',
      pointer: '/safety/human_approval_required',
      args: {},
      level: 'fail',
    });
  }
  const perf = card.performance;
  if (
    perf &&
    typeof perf.p50_latency_ms === 'number' &&
    typeof perf.p99_latency_ms === 'number' &&
    perf.p50_latency_ms > perf.p99_latency_ms
  ) {
    problems.push({
      code: 'p50-above-p99',
      pointer: '/performance',
      args: { p50: perf.p50_latency_ms, p99: perf.p99_latency_ms },
      level: 'warn',
    });
  }
  // The card may be schema-invalid here: read it defensively.
  (Array.isArray(card.tested_with) ? card.tested_with : []).forEach((t, index) => {
    const at = Date.parse(asText(t?.tested_at));
    if (Number.isFinite(at) && at > now.getTime() + DAY_MS)
      problems.push({
        code: 'tested-in-future',
        pointer: `/tested_with/${index}/tested_at`,
        args: { index, at: asText(t.tested_at) },
        level: 'warn',
      });
  });
  return problems;
}
