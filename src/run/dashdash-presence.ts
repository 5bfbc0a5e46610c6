import type { LiveContext } from './context.js';
import type { Discovery } from './discovery.js';
import type { Messages } from '../core/messages.js';
import { isPlainObject } from '../protocol/payload.js';
import type { JsonObject } from '../transport/types.js';

/** Whether the server shows any dashdash metadata at all (initialize, a tool, or a resource). */
export function showsDashdash(d: Discovery, full: ReadonlyMap<string, JsonObject>): boolean {
  return (
    isPlainObject(d.initializeResult.dashdash) ||
    d.tools.some((t) => 'dashdash' in t) ||
    d.resources.some((r) => 'dashdash' in r) ||
    [...full.values()].some((f) => 'dashdash' in f)
  );
}

/** The codes of `requireDashdashOrSkip`, for the messages of every dashdash check. */
export const DASHDASH_PRESENCE_MESSAGES = {
  'dashdash-absent':
    'The server shows no dashdash metadata; dashdash is an optional extension (use --require dashdash to insist).',
  'dashdash-required': {
    message:
      'The server shows no dashdash metadata (none in initialize, on tools or on resources), and --require dashdash is set.',
    hint: 'Add a "dashdash" object to the initialize result (dashdash v0.2.0 §3.1).',
  },
} as const satisfies Messages;

/**
 * dashdash is an optional extension: skip a server that shows none of it, unless --require dashdash (the check reads
 * the descriptions).
 */
export async function requireDashdashOrSkip(ctx: LiveContext<keyof typeof DASHDASH_PRESENCE_MESSAGES>): Promise<void> {
  if (showsDashdash(ctx.discovery, ctx.facts.descriptions.full)) return;
  if (ctx.options.require.includes('dashdash')) {
    ctx.fail('dashdash-required');
    ctx.stop();
  }
  ctx.skip('dashdash-absent');
}
