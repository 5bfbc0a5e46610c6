import { classifyCall, reachedTool, rejectsArguments, TOOL_DESCRIPTION_REQUIRED } from '../protocol/calls.js';
import { anySignalledCode, invalidErrorCode } from '../protocol/errors.js';
import { isPlainObject } from '../protocol/payload.js';
import { descriptionsUri, isToolDescriptionsUri, requestedTools, sameUri } from '../protocol/uri.js';
import { resembled } from './ops.js';
import type { Exchange, JsonObject } from '../transport/types.js';
import { inlineJson } from '../util/text.js';
import { CRITERION, type RuleBreak, type SessionModel, type World } from './world.js';

/**
 * What the model says of a call of `tool` in a session in state `state` (§5.1, §6.2): granted →
 * not refused with TOOL_DESCRIPTION_REQUIRED (it may still fail on its arguments); not granted →
 * refused, with the resource_uri of this tool. A call changes no state.
 */
export type CallJudgement =
  | { kind: 'as-expected'; breaks: RuleBreak[]; form?: string }
  /** Its state is open (an answer left it undecided): not judged. */
  | { kind: 'open' }
  | { kind: 'no-response'; granted: boolean; note: string }
  /** Refused although the session holds the grant. */
  | { kind: 'grant-lost'; code: string }
  /** Not refused although the session does not hold the grant; `how` is criterion 7's code for the answer it got. */
  | { kind: 'ran'; how: { code: string; args: Record<string, unknown> } };

export function judgeCall(
  world: World,
  state: SessionModel,
  tool: string,
  args: JsonObject,
  ex: Exchange,
): CallJudgement {
  if (!world.toolSet.has(tool)) return judgeNearName(world, tool, ex);
  if (state.open.has(tool)) return { kind: 'open' };
  const granted = state.grants.has(tool);
  const outcome = classifyCall(ex);
  if (outcome.kind === 'no-response') return { kind: 'no-response', granted, note: outcome.note };
  if (granted) {
    if (outcome.kind === 'refused') return { kind: 'grant-lost', code: outcome.signal.code };
    return { kind: 'as-expected', breaks: exampleKept(world, tool, args, ex) };
  }
  if (outcome.kind === 'authorized') return { kind: 'ran', how: howItRan(tool, ex, world.schemas.get(tool)) };
  const signal = outcome.signal;
  const breaks: RuleBreak[] = [];
  const add = (code: string, extra: Record<string, unknown> = {}, level: RuleBreak['level'] = 'fail') =>
    breaks.push({ check: CRITERION.refusal, code, args: { tool, ...extra }, level, tool, proof: [ex] });
  if (!signal.accepted) {
    add('only-in-text');
    return { kind: 'as-expected', breaks };
  }
  const uri = signal.payload.resource_uri;
  if (typeof uri !== 'string') add('no-resource-uri');
  else if (world.listed && world.resource && !sameUri(uri, descriptionsUri(world.resource, [tool])))
    add('wrong-resource-uri', { uri, expected: descriptionsUri(world.resource, [tool]) });
  // Unlisted (pd-resource-listed's finding): it must still name the resource and this tool.
  else if (!world.listed && !(isToolDescriptionsUri(uri) && (requestedTools(uri) ?? []).join(',') === tool))
    add('wrong-resource-uri', { uri, expected: `<scheme>:…/tool_descriptions?tools=${tool}` });
  if (typeof signal.payload.message !== 'string' || !signal.payload.message.trim()) add('no-message', {}, 'warn');
  if (signal.isError === false) add('no-is-error', {}, 'warn');
  const form =
    signal.form + (signal.isError === undefined ? '' : signal.isError ? ' (isError: true)' : ' (no isError)');
  return { kind: 'as-expected', breaks, form };
}

/** How a near name differs from the tool's, in words. */
const NEAR_HOW: Record<string, string> = {
  case: 'other case',
  spaces: 'spaces around it',
  separator: 'other separators',
  prefix: 'a part left out',
  suffix: 'something added',
  edit: 'a letter changed',
};
/** What an answer to an unknown tool says of it: not found, unknown, no such tool. */
const UNKNOWN_TOOL =
  /unknown|not found|no such|does not exist|doesn't exist|not exist|not available|unrecognized|invalid tool/i;

/**
 * A call of a name that is no listed tool but resembles one (§4.3: names match exactly): a correct
 * server answers it as an unknown tool, or refuses it. One that runs the tool, or reaches its own
 * argument check, resolved the name loosely past the authorization check: criterion 7.
 */
function judgeNearName(world: World, name: string, ex: Exchange): CallJudgement {
  const near = resembled(name, world.tools);
  const outcome = classifyCall(ex);
  if (!near || outcome.kind !== 'authorized')
    return outcome.kind === 'no-response'
      ? { kind: 'no-response', granted: false, note: outcome.note }
      : { kind: 'as-expected', breaks: [] };
  const error = ex.response?.error;
  const result = ex.response?.result as { isError?: unknown; content?: unknown } | undefined;
  const failed = error !== undefined || result?.isError === true;
  const text = failed ? JSON.stringify(error ?? result?.content ?? '') : '';
  if (failed && (UNKNOWN_TOOL.test(text) || text.includes(JSON.stringify(name).slice(1, -1))))
    return { kind: 'as-expected', breaks: [] };
  // It ran (a result), or it reached the tool's own argument check (which names the tool's parameters).
  if (failed && !rejectsArguments(ex, world.schemas.get(near.tool))) return { kind: 'as-expected', breaks: [] };
  return {
    kind: 'as-expected',
    breaks: [
      {
        check: CRITERION.refusal,
        code: 'near-name-ran',
        args: { name, tool: near.tool, how: NEAR_HOW[near.how] ?? near.how },
        level: 'fail',
        tool: near.tool,
        proof: [ex],
      },
    ],
  };
}

/**
 * What an error says when it is a refusal for want of a description, in the wrong form (not the tool failing at its
 * work).
 */
const ABOUT_AUTHORIZATION =
  /descri|tool_descriptions|authori[sz]|permission|forbidden|denied|not (allowed|permitted)|must (first )?(fetch|read|load)|before (calling|use|using)/i;

/**
 * Criterion 7's code for an unfetched call that was not refused with TOOL_DESCRIPTION_REQUIRED,
 * and how it went, from the answer itself: a call that reached the tool ran (or failed at its own
 * work, or at its argument check); only an error that speaks of descriptions or authorization is
 * a refusal in the wrong form.
 */
function howItRan(tool: string, ex: Exchange, schema: unknown): { code: string; args: Record<string, unknown> } {
  // It reached the tool's own argument check: the call was let through, whatever the check said.
  if (rejectsArguments(ex, schema))
    return { code: 'ran-unfetched', args: { tool, how: 'it reached its own argument check' } };
  const bad = invalidErrorCode(ex);
  if (bad) return { code: 'invalid-error-code', args: { tool, problem: bad } };
  const other = anySignalledCode(ex);
  if (other && other !== TOOL_DESCRIPTION_REQUIRED) return { code: 'other-code', args: { tool, code: other } };
  const error = ex.response?.error;
  const result = ex.response?.result as
    { isError?: boolean; content?: unknown; structuredContent?: unknown } | undefined;
  const failure =
    error !== undefined
      ? inlineJson(error, 160)
      : result?.isError
        ? inlineJson(result.structuredContent ?? result.content ?? '', 160)
        : undefined;
  if (failure !== undefined && ABOUT_AUTHORIZATION.test(failure)) {
    return error !== undefined
      ? { code: 'error-without-code', args: { tool, error: failure } }
      : { code: 'tool-error-without-code', args: { tool } };
  }
  if (reachedTool(ex))
    return { code: 'ran-unfetched', args: { tool, how: 'it ran: the server reported progress on it' } };
  return {
    code: 'ran-unfetched',
    args: { tool, how: failure === undefined ? 'it ran' : `it ran and failed: ${failure}` },
  };
}

/**
 * A read-only tool called, once fetched, with an example of its own full description must not
 * reject it as invalid arguments: the description documents a contract the tool does not keep.
 */
function exampleKept(world: World, tool: string, args: JsonObject, ex: Exchange): RuleBreak[] {
  if (!world.readOnly.has(tool)) return [];
  const examples = world.descriptions.get(tool)?.examples;
  if (!Array.isArray(examples)) return [];
  const number = examples.findIndex((e) => isPlainObject(e) && JSON.stringify(e.input) === JSON.stringify(args)) + 1;
  if (number === 0 || !rejectsArguments(ex, world.schemas.get(tool))) return [];
  return [
    { check: CRITERION.answer, code: 'example-rejected', args: { tool, number }, level: 'fail', tool, proof: [ex] },
  ];
}
