// Requests in flight together reach the server in an order nobody saw: the model judges them in the
// order that explains them best, among the orders real time allows.
import type { Step } from './timeline.js';

/** Steps in flight together beyond which only the sent order is tried (7! orders at most). */
const MAX_REORDERED = 7;

/**
 * The order of a group of steps in flight together that the model explains best: the order they
 * were sent in, unless another order that respects real time (a step answered before another was
 * sent comes first) leaves fewer calls unexplained. Each order is tried on a fresh `trial` state.
 */
export function bestOrder<S>(steps: Step[], trial: () => S, apply: (step: Step, state: S) => 'ok' | 'bad'): Step[] {
  if (steps.length === 1 || !steps.some((s) => s.op.kind === 'call') || !steps.some((s) => s.op.kind === 'read') || steps.length > MAX_REORDERED) return steps;
  let best = steps;
  let bestBad = Number.POSITIVE_INFINITY;
  for (const order of orders(steps)) {
    const state = trial();
    const bad = order.reduce((n, step) => n + (apply(step, state) === 'bad' ? 1 : 0), 0);
    if (bad < bestBad) [best, bestBad] = [order, bad];
    if (bad === 0) break;
  }
  return best;
}

/** Orders of the steps that respect real time, the sent order first. */
function* orders(steps: Step[], prefix: Step[] = []): Generator<Step[]> {
  if (!steps.length) {
    yield prefix;
    return;
  }
  for (const step of steps) {
    const rest = steps.filter((s) => s !== step);
    if (rest.some((r) => r.done < step.sent)) continue; // something answered before this was sent must come first
    yield* orders(rest, [...prefix, step]);
  }
}
