import { defineCheck, type CheckDefinition, type Codes } from '../core/check.js';
import type { Messages } from '../core/messages.js';
import type { LiveContext } from './context.js';

export type LiveCheck = Readonly<CheckDefinition<LiveContext>>;

/** A live check; `ctx.fail('code', …)` accepts only the codes of `messages` (and the shared ones). */
export function defineLiveCheck<M extends Messages>(definition: CheckDefinition<LiveContext<Codes<M>>, M>): LiveCheck {
  return defineCheck(definition as never);
}
