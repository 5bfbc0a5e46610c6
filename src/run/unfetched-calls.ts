import { SlowStartError, TargetUnavailableError } from '../transport/types.js';
import type { McpSession } from '../transport/session.js';
import { mapLimit } from '../util/concurrency.js';
import type { UnfetchedCalls } from './facts.js';
import type { Run } from './run.js';

/** Tools called unfetched, at most: on a server with thousands, the refusal of this many proves the rule. */
export const UNFETCHED_SAMPLE = 500;
/** Read-only calls in flight at once in the clean session. */
const AT_ONCE = 8;
/** The name the ledger gives the calls of these phases. */
export const UNFETCHED_PHASE = 'unfetched-calls';

/** The tools the phases call unfetched, read-only ones first (a sample on large servers). */
function tried(run: Run): { tried: string[]; total: number } {
  const all = run.tools.order(run.tools.callable());
  return { tried: all.slice(0, UNFETCHED_SAMPLE), total: all.length };
}

/**
 * The first calls of the run, before anything is fetched anywhere (DESIGN, "Calling tools"):
 * read-only tools in the clean session. A refusal here shows the server enforces descriptions at
 * all; once one ran, more prove something only with arguments their schema refuses, on a server
 * whose argument check answered the one that ran (a refusal of another then shows enforcement).
 */
export async function callReadOnlyUnfetched(run: Run): Promise<void> {
  const readOnly = tried(run).tried.filter((t) => run.tools.isReadOnly(t));
  if (!readOnly.length) return;
  const clean = await cleanOrNothing(run);
  if (!clean) return;
  const ledger = run.door.ledger;
  const call = async (tool: string) => {
    // After a tool ran unfetched, more calls prove something only where they stay harmless: with
    // arguments their schema refuses, on a server shown to check them (another session's grant, or none?).
    if (ledger.ranUnfetched && !ledger.validates) return declineProven(run, tool);
    await run.door.call(clean, tool, {
      by: UNFETCHED_PHASE,
      ...(ledger.ranUnfetched ? { intent: 'invalid-arguments' as const } : {}),
    });
  };
  // One at a time until the server has refused one (it enforces descriptions): a server that
  // does not is shown by its first call, and no other tool runs for nothing.
  let next = 0;
  while (next < readOnly.length && ledger.refusals === 0 && !ledger.ranUnfetched) await call(readOnly[next++]);
  await mapLimit(readOnly.slice(next), AT_ONCE, call);
}

/**
 * Then, with the full descriptions known (their schemas say what arguments they refuse), the
 * other tools, one at a time; and the first tool called, once more: a refusal neither grants nor
 * is used up. Produces the fact `unfetched-calls`.
 */
export async function callOthersUnfetched(run: Run): Promise<void> {
  const { tried: tools, total } = tried(run);
  const clean = tools.length ? await cleanOrNothing(run) : undefined;
  if (clean) {
    // The door takes them one at a time until the server has refused one; then they go together,
    // with the first tool's second call.
    const first = run.door.ledger.calls.find((c) => c.by === UNFETCHED_PHASE);
    const again =
      first && !run.door.ledger.ranUnfetched ? [run.door.call(clean, first.tool, { by: UNFETCHED_PHASE })] : [];
    await Promise.all([
      ...again,
      mapLimit(
        tools.filter((t) => !run.tools.isReadOnly(t)),
        AT_ONCE,
        async (tool) => {
          const ledger = run.door.ledger;
          if (ledger.ranUnfetched && !ledger.validates) declineProven(run, tool);
          else
            await run.door.call(clean, tool, {
              by: UNFETCHED_PHASE,
              ...(ledger.ranUnfetched ? { intent: 'invalid-arguments' as const } : {}),
            });
        },
      ),
    ]);
    if (!first) {
      const firstNow = run.door.ledger.calls.find((c) => c.by === UNFETCHED_PHASE);
      if (firstNow && !run.door.ledger.ranUnfetched) await run.door.call(clean, firstNow.tool, { by: UNFETCHED_PHASE });
    }
  }
  const ledger = run.door.ledger;
  const fact: UnfetchedCalls = {
    tried: tools,
    total,
    calls: Object.freeze(ledger.calls.filter((c) => c.by === UNFETCHED_PHASE)),
    notCalled: Object.freeze(
      ledger.refusedToCall.filter(
        (n) => n.by === UNFETCHED_PHASE && !ledger.calls.some((c) => c.by === UNFETCHED_PHASE && c.tool === n.tool),
      ),
    ),
    ...(run.cleanProblem
      ? {
          unavailable: run.cleanProblem.message,
          ...(run.cleanProblem instanceof SlowStartError ? { slowStart: true } : {}),
        }
      : {}),
  };
  run.produce('unfetched-calls', Object.freeze(fact));
}

async function cleanOrNothing(run: Run): Promise<McpSession | undefined> {
  try {
    return await run.cleanSession();
  } catch (err) {
    if (!(err instanceof TargetUnavailableError)) throw err;
    run.cleanProblem = err;
    return undefined;
  }
}

function declineProven(run: Run, tool: string): void {
  run.door.decline(
    tool,
    UNFETCHED_PHASE,
    `'${run.door.ledger.ranUnfetched}' already ran unfetched, which proves the server does not enforce descriptions; more unfetched calls would prove nothing new`,
    'proves-nothing',
  );
}
