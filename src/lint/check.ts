import { defineCheck, type CheckDefinition, type Codes } from '../core/check.js';
import type { Messages } from '../core/messages.js';
import type { LintContext } from './context.js';

export type LintCheck = Readonly<CheckDefinition<LintContext>>;

/** A lint check; `ctx.fail('code', …)` accepts only the codes of `messages` (and the shared ones). */
export function defineLintCheck<M extends Messages>(definition: CheckDefinition<LintContext<Codes<M>>, M>): LintCheck {
  return defineCheck(definition as never);
}
