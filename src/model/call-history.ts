// What a session did before a call, as the attribution of a call that ran reads it
// (src/model/attribution.ts): the reads that may have let it through, the calls answered before it.
import { classifyCall } from '../protocol/calls.js';
import type { Exchange } from '../transport/types.js';
import type { PastStep } from './attribution.js';
import { analyzeMissingRead } from './missing-selection.js';
import { analyzeRead } from './read.js';
import type { SessionViews } from './session-views.js';
import type { Step } from './timeline.js';

/**
 * What a session did before a call, as far as it bears on the call: every read that may have come
 * before it (sent before it was answered: a candidate for what let it through), and every call
 * answered before it was sent, in the order they were sent. A read is one object in every history
 * (attribution knows a read that already explained a call by it).
 */
export function historyOf(
  step: Step,
  all: readonly Step[],
  views: SessionViews,
  seen: Map<Exchange, PastStep | null>,
): PastStep[] {
  const history: PastStep[] = [];
  for (const s of all) {
    if (s === step || s.session !== step.session) continue;
    if ((s.op.kind === 'read' || s.op.kind === 'read-missing') && s.sent < step.done) {
      const read = seen.get(s.ex) ?? pastRead(s, views);
      seen.set(s.ex, read);
      if (read) history.push(read);
    } else if (s.op.kind === 'call' && s.done < step.sent && classifyCall(s.ex).kind !== 'no-response') {
      history.push({ kind: 'call', tool: s.op.tool, refused: classifyCall(s.ex).kind === 'refused' });
    }
  }
  return history;
}

/** A read as a call's history holds it (null: no answer came, so it is no read that could have let a call through). */
function pastRead(s: Step, views: SessionViews): PastStep | null {
  if (s.op.kind === 'read-missing') {
    return analyzeMissingRead(views.world, s.op.uri, s.ex).inconclusive
      ? null
      : { kind: 'read', read: { items: [], refused: false, returned: new Set(), ex: s.ex } };
  }
  if (s.op.kind !== 'read') return null;
  const analysis = analyzeRead(views.world, s.op.items, s.ex);
  if (analysis.inconclusive) return null;
  return {
    kind: 'read',
    read: {
      items: s.op.items,
      refused: analysis.refused,
      returned: analysis.refused ? new Set() : analysis.returned,
      ex: s.ex,
    },
  };
}
