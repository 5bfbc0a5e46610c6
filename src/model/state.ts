import type { McpSession } from '../transport/session.js';
import type { Exchange } from '../transport/types.js';
import { analyzeMissingRead, type MissingReadAnalysis } from './missing-selection.js';
import { opOf, type Op } from './ops.js';
import { analyzeRead, type ReadAnalysis } from './read.js';
import { emptySession, type SessionModel, type World } from './world.js';
import { answerRead, readResult } from '../protocol/server/disclosure.js';
import { RESOURCE_URI } from '../protocol/server/payloads.js';
import { descriptionsUri } from '../protocol/uri.js';

/**
 * How an operation changes a session's state (DESIGN, "The model"), in one place: a read grants
 * exactly the known tools whose descriptions it returned (a refused one nothing); a read without
 * a selection changes nothing (descriptions it returned anyway leave those tools open); lists and
 * calls change nothing.
 */
export function transition(
  world: World,
  model: SessionModel,
  op: Op,
  ex: Exchange,
): { read?: ReadAnalysis; missing?: MissingReadAnalysis } {
  if (op.kind === 'read') {
    const read = analyzeRead(world, op.items, ex);
    // A read that got no answer may have been taken: what it named is left open.
    if (read.inconclusive) for (const tool of read.unasked) if (!model.grants.has(tool)) model.open.add(tool);
    if (!read.refused) {
      for (const tool of read.returned) {
        model.grants.add(tool);
        model.open.delete(tool);
      }
      for (const tool of read.unasked) if (!model.grants.has(tool)) model.open.add(tool);
    }
    return { read };
  }
  if (op.kind === 'read-missing') {
    const missing = analyzeMissingRead(world, op.uri, ex);
    for (const tool of missing.returned) if (!model.grants.has(tool)) model.open.add(tool);
    return { missing };
  }
  return {};
}

/**
 * What a read of `names` does to a session of a correct server: the server side of progressive
 * disclosure answers it (src/protocol/server/disclosure.ts), and the model's own transition takes
 * that answer — so the exploration's generator foresees grants by the very rules that judge them.
 */
export function readAsServed(world: World, model: SessionModel, names: string[]): void {
  const uri = descriptionsUri(RESOURCE_URI, names);
  const catalog = {
    names: () => [...world.tools],
    full: (n: string) => (world.toolSet.has(n) ? (world.descriptions.get(n) ?? { name: n }) : undefined),
  };
  const answer = answerRead(uri, catalog);
  const response =
    answer.kind === 'answer'
      ? { jsonrpc: '2.0', id: 0, result: readResult(uri, answer.body) }
      : {
          jsonrpc: '2.0',
          id: 0,
          error: answer.kind === 'refused' ? answer.error : { code: -32002, message: 'Resource not found' },
        };
  const ex: Exchange = {
    session: '',
    method: 'resources/read',
    request: { jsonrpc: '2.0', id: 0, method: 'resources/read', params: { uri } },
    response,
    durationMs: 0,
  };
  transition(world, model, opOf(ex, world.descriptionsTool), ex);
}

/** A session's state now, by the model: its answered exchanges replayed in the order they were sent. */
export function stateOf(world: World, session: McpSession): SessionModel {
  const model = emptySession();
  for (const ex of session.exchanges)
    if (ex.response || ex.noResponse) transition(world, model, opOf(ex, world.descriptionsTool), ex);
  return model;
}

/**
 * Whether a read still in flight in `session` may grant `tool` (it names it, or names nothing):
 * until it is answered, whether a call of the tool is fetched is not known.
 */
export function grantInFlight(session: McpSession, tool: string, mirror?: string): boolean {
  return session.exchanges.some((ex) => {
    if (ex.response || ex.noResponse) return false;
    const op = opOf(ex, mirror);
    return (
      op.kind === 'read-missing' ||
      (op.kind === 'read' &&
        op.items.some((n) => n === tool || n.trim() === tool || n.toLowerCase() === tool.toLowerCase()))
    );
  });
}

/**
 * The model's state of sessions, kept up to date as their exchanges are answered (replaying a
 * session from the start before each of its calls would cost its length squared).
 */
export class SessionStates {
  private readonly known = new WeakMap<McpSession, { model: SessionModel; next: number }>();

  of(world: World, session: McpSession): SessionModel {
    const entry = this.known.get(session) ?? { model: emptySession(), next: 0 };
    this.known.set(session, entry);
    // In the order they were sent, as far as they are answered (a pending one holds the rest back).
    while (entry.next < session.exchanges.length) {
      const ex = session.exchanges[entry.next];
      if (!ex.response && !ex.noResponse) break;
      transition(world, entry.model, opOf(ex, world.descriptionsTool), ex);
      entry.next++;
    }
    return entry.model;
  }
}
