// Every rule of the model of progressive disclosure, by the check that owns it (the team's DESIGN,
// "Ownership"): each code the model gives, with its message and fix hint, written here once. The
// owning check spreads its table into its own messages; src/model/ judges and emits these codes.
import type { Messages } from '../core/messages.js';
import { TOOL_DESCRIPTION_REQUIRED } from '../protocol/calls.js';
import { CRITERION, SESSION_LIFECYCLE } from './world.js';

const NAMES_HINT =
  "Parse the 'tools' query parameter, split it on commas, and return one entry per name, keyed by the exact name.";
const EXACT_NAMES_HINT = 'Look names up exactly, case included; a name that is not in tools/list is unknown (§6.3).';
const MISSING_HINT =
  'Answer with {"error":{"code":"MISSING_TOOL_SELECTION","message":…,"examples":[…?tools=…]}} (JSON text of the read, or JSON-RPC error data).';
const REFUSAL_HINT = `Refuse the call with {"error":{"code":"${TOOL_DESCRIPTION_REQUIRED}","message":…,"resource_uri":"<resource>?tools=<name>"}} until the description was fetched in this session (if pd-session-isolation fails too, grants leak between sessions).`;
const UNKNOWN_HINT = `Return { "<name>": { "error": "Tool '<name>' not found", "available_tools": [ …the tools/list names… ] } } for each unknown name.`;
const SAME_LIST_HINT = 'Build available_tools from the same list as tools/list.';
/** What would prove criteria 6-8 where nothing was refused: a call before anything is fetched anywhere. */
const SAFE_CALL_HINT =
  'Mark a tool that is safe to call readOnlyHint: true (or dashdash operationType: "read"), or name one with --safe-tool NAME: the run calls it before anything is fetched, which tells a server that never gates from one whose grants every session shares.';
const NOT_PROVEN = 'Not proven: ';

export const MODEL_MESSAGES = {
  [CRITERION.listing]: {
    'listing-changed': {
      message:
        'tools/list answered differently later in the run, in a session that held grants for {granted}: §3.1 keeps the same minimal list in every state (fetching a description must not change the listing).',
      hint: 'Serve the same minimal tools/list whatever the session fetched; full descriptions come only from the tool_descriptions resource.',
    },
  },
  [CRITERION.names]: {
    'single-fetch-failed': { message: 'Fetching ?tools={tool} failed: {problem}.', hint: NAMES_HINT },
    'single-fetch-no-entry': {
      message:
        "Fetching ?tools={tool} returned no description of '{tool}' (keys: {keys}), although other reads return it.",
      hint: NAMES_HINT,
    },
    'multi-fetch-failed': {
      message:
        'Fetching {count} tools at once (?tools={sample}…) {problem}; §4.3 requires comma-separated names to work.',
      hint: NAMES_HINT,
    },
    'prefix-match': {
      message:
        "Fetching ?tools={prefix}, which is no tool's name, returned the description of '{tool}': names must match exactly, not by prefix (§4.3).",
      hint: EXACT_NAMES_HINT,
    },
    'case-insensitive': {
      message:
        "Fetching ?tools={altered} returned the description of '{tool}': names must match tools/list exactly, case included (§4.3).",
      hint: EXACT_NAMES_HINT,
    },
    'near-name-match': {
      message:
        "Fetching ?tools={name}, which is no tool's name, returned the description of '{tool}': names must match tools/list exactly (§4.3).",
      hint: EXACT_NAMES_HINT,
    },
  },
  [CRITERION.answer]: {
    'extra-keys': {
      message:
        'Asked for {requested}, the response also has {keys}. §4.4: only the requested tools, and no instructional preamble (guidance belongs in the resource description).',
      hint: 'Return an object whose keys are exactly the requested tool names.',
    },
    'missing-entry': {
      message: "The response has no description under the key of the requested tool '{tool}'.",
      hint: 'Return { "<name>": { name, description, inputSchema, examples } } for every requested tool.',
    },
    'example-rejected': {
      message:
        "'{tool}' rejected example {number} of its own full description as invalid arguments: the description documents a contract the tool does not keep.",
      hint: 'Make the examples valid calls of the tool, or make the tool accept what its inputSchema and examples say.',
    },
  },
  [CRITERION.missing]: {
    'invalid-error-code': {
      message: 'Reading {uri} ({what}): {problem}; clients drop such replies.',
      hint: MISSING_HINT,
    },
    'not-signalled': {
      message: 'Reading {uri} ({what}) did not give MISSING_TOOL_SELECTION; {instead}.',
      hint: MISSING_HINT,
    },
    'only-in-text': {
      message:
        'Reading {uri} ({what}) mentions MISSING_TOOL_SELECTION only in a message text, where a client cannot read it as a code.',
      hint: MISSING_HINT,
    },
    'no-message': {
      message: 'The MISSING_TOOL_SELECTION error ({what}) has no message (§6.1 shows one).',
      hint: 'Add "message": "You must specify one or more tool names in the \'tools\' parameter."',
    },
    'no-example-uris': {
      message: 'The MISSING_TOOL_SELECTION error ({what}) gives no example URIs with ?tools= (§6.1 shows them).',
      hint: 'Add "examples": ["resource:///tool_descriptions?tools=tool_name", …].',
    },
    'signalled-as': 'Signalled as: {forms}.',
    'example-unknown-tool': {
      message:
        'The MISSING_TOOL_SELECTION error ({what}) gives the example {uri}, which names {tools}: no tool of this server.',
      hint: 'Build the example URIs from real tool names, so that a client can follow them.',
    },
  },
  [CRITERION.grants]: {
    proof:
      "In session {session}, '{tool}' was let through once its description was fetched there, and '{refused}', while not fetched there, was refused.",
    'grant-held-idle':
      "Session {session} fetched '{tool}', made no request for {window} s or more (the idle window, --idle), and{connection} its call was still let through: a grant outlasts idleness (the times are in the exploration's summary).",
    'no-refusal': {
      message: `${NOT_PROVEN}no call was refused with ${TOOL_DESCRIPTION_REQUIRED} anywhere in the run, so nothing showed that a fetch is what lets a call through.`,
      hint: SAFE_CALL_HINT,
    },
    'no-granted-call': {
      message: `${NOT_PROVEN}no tool was called once its description was fetched, so nothing showed that a fetch authorizes it.`,
      hint: 'Mark a tool that is safe to call readOnlyHint: true, or name one with --safe-tool NAME (or run with --allow-destructive against a test instance).',
    },
    'not-in-one-session': {
      message: `${NOT_PROVEN}no session both had a fetched tool let through and an unfetched one refused.`,
      hint: 'Where grants cross sessions (pd-session-isolation fails), fix that first: no session then shows a fetch opening its tool alone. Otherwise give the checker a tool it may call in every session: mark one readOnlyHint: true, or name it with --safe-tool NAME.',
    },
    'failed-fetch-authorized': {
      message:
        "Calling '{tool}' was not refused, although this session had fetched only {fetched}, which returned no description of it: a failed fetch or an unknown name must authorize nothing (§5.1).",
      hint: 'Grant a tool only when its description was returned, under its exact name, per session.',
    },
    'refused-read-authorized': {
      message:
        "A read of {names} names, which the server refused, still authorized '{tool}': a refused or failed fetch must authorize nothing (§5.1).",
      hint: 'Check the request (size, names, rate) before granting anything, and grant only what the answer actually describes.',
    },
    'grant-not-kept': {
      message:
        "Calling '{tool}' was refused with {code} although its description had been fetched in this session: authorization must last for the whole session (§5.1).",
      hint: 'Keep the grant for the session: do not consume it on first use, expire it early, or drop it on any other request.',
    },
    'fetch-authorized-other': {
      message:
        "Calling '{tool}' was not refused although this session had fetched only {fetched}: fetching a tool must authorize only that tool.",
      hint: 'Record grants per exact tool name, not as a single "has fetched something" flag or by a name it resembles.',
    },
  },
  [CRITERION.refusal]: {
    proof: `'{tool}', called in session {session} before its description was fetched there, was refused with ${TOOL_DESCRIPTION_REQUIRED} ({count|refusal} of unfetched calls in all).`,
    'nothing-refused': {
      message: `${NOT_PROVEN}no tool was called before its description was fetched, or no such call was answered, so no refusal was seen.`,
      hint: 'Mark a tool that is safe to call readOnlyHint: true, or name one with --safe-tool NAME (or run with --allow-destructive against a test instance).',
    },
    'ran-unfetched-never-refused': {
      message: `Calling '{tool}' before fetching its description in this session was let through ({how}), and no call was refused with ${TOOL_DESCRIPTION_REQUIRED} anywhere in the run. Two readings fit: the server gates no call at all, or its grants are shared by every session (another session had fetched '{tool}' by then). Only a call made before anything is fetched anywhere tells them apart, and the run made none.`,
      hint: `${SAFE_CALL_HINT} Then fix what it shows: refuse unfetched calls (§5.1, §6.2), or keep grants per session (§5.1.4).`,
    },
    'invalid-error-code': {
      message:
        "Calling '{tool}' unfetched: {problem}. Put the string code in error.data.code and use an integer error.code.",
      hint: REFUSAL_HINT,
    },
    'ran-unfetched': {
      message:
        "Calling '{tool}' before fetching its description was let through ({how}), although its description had not been fetched in this session.",
      hint: REFUSAL_HINT,
    },
    'other-code': {
      message: "Calling '{tool}' before fetching its description was refused with {code} instead.",
      hint: REFUSAL_HINT,
    },
    'near-name-ran': {
      message:
        "Calling '{name}' (no listed tool: '{tool}' with {how}) ran '{tool}' although its description had not been fetched: the name was resolved loosely past the authorization check.",
      hint: 'Match tool names exactly: answer a name that is not listed as an unknown tool, and check authorization on the tool a call resolves to, not on the name as sent.',
    },
    'error-without-code': {
      message:
        "Calling '{tool}' before fetching its description failed with a JSON-RPC error without the code: {error}.",
      hint: REFUSAL_HINT,
    },
    'tool-error-without-code': {
      message:
        "Calling '{tool}' before fetching its description failed with a tool error that does not carry the code.",
      hint: REFUSAL_HINT,
    },
    'only-in-text': {
      message: `Calling '{tool}' unfetched mentions ${TOOL_DESCRIPTION_REQUIRED} only in message text, where clients cannot read it as a code.`,
      hint: REFUSAL_HINT,
    },
    'no-resource-uri': {
      message: `The ${TOOL_DESCRIPTION_REQUIRED} error for '{tool}' has no resource_uri telling the client what to fetch (§6.2).`,
      hint: REFUSAL_HINT,
    },
    'wrong-resource-uri': {
      message: `The ${TOOL_DESCRIPTION_REQUIRED} error for '{tool}' has resource_uri '{uri}', but fetching this tool means '{expected}'.`,
      hint: REFUSAL_HINT,
    },
    'no-message': {
      message: `The ${TOOL_DESCRIPTION_REQUIRED} error for '{tool}' has no message (§6.2 shows one).`,
      hint: 'Add "message": "Tool \'{tool}\' requires fetching its description before use."',
    },
    'no-is-error': {
      message:
        "The refusal of '{tool}' is a tool result without isError: true; MCP marks failed tool calls with isError.",
      hint: 'Set "isError": true on the refusal result.',
    },
    'refusals-form': 'Refusals signalled as: {forms}.',
  },
  [CRITERION.isolation]: {
    proof:
      "Session {refused} was refused '{tool}' while session {holder} held it, and session {after}, opened after {ended} had ended, was refused '{inherited}', which {ended} had fetched.",
    'no-refusal': {
      message: `${NOT_PROVEN}no call was refused with ${TOOL_DESCRIPTION_REQUIRED} anywhere in the run, so nothing showed that one session's fetch does not open a tool for another.`,
      hint: SAFE_CALL_HINT,
    },
    'no-refusal-beside-holder': {
      message: `${NOT_PROVEN}no session was refused a tool while another session held it.`,
      hint: 'Give the checker a tool it may call in every session: mark one readOnlyHint: true, or name it with --safe-tool NAME.',
    },
    'no-refusal-after-end': {
      message: `${NOT_PROVEN}no session opened after others had ended was refused a tool they had held.`,
      hint: 'Give the checker a tool it may call in every session: mark one readOnlyHint: true, or name it with --safe-tool NAME.',
    },
    'own-grant-refused': {
      message:
        "Session {session} fetched '{tool}', yet calling it was refused while other sessions were active: authorization is not kept per session (§5.1).",
      hint: 'Key grants by the MCP session, not by a shared "current session" variable.',
    },
    'grant-leaked': {
      message:
        "Session {session} never fetched '{tool}' but could call it; {owners} had fetched it: authorization leaks between sessions (§5.1.4).",
      hint: 'Store grants per MCP session (per process over stdio, per Mcp-Session-Id over HTTP), never globally.',
    },
    'grant-inherited': {
      message:
        "A session opened after {session} had fetched '{tool}' and ended could call '{tool}' without fetching it: a new session must not inherit grants (§5.1, §5.2).",
      hint: 'Drop or key grants by session; never persist them beyond the session that made them.',
    },
  },
  [CRITERION.toolForm]: {
    'grants-more': {
      message:
        "Calling '{tool}' was not refused after the tool form of the resource was called for {fetched} only: the tool form must authorize exactly what a read of the resource with the same selection authorizes.",
      hint: 'Answer the tool form through the same code as the resource read, and grant exactly the tools whose descriptions it returned.',
    },
    'grants-less': {
      message:
        "Calling '{tool}' was refused although the tool form of the resource had returned its description in this session: the tool form must authorize what a read of the resource authorizes.",
      hint: "Grant the tools whose descriptions the tool form returned, in the caller's session, as the resource read does.",
    },
  },
  [SESSION_LIFECYCLE]: {
    'ended-session-answered': {
      message:
        'A request under the Mcp-Session-Id of {session}, after the checker ended that session with DELETE, was answered with HTTP {status}: a terminated session must be answered 404 (MCP transports, session management).',
      hint: 'Forget a session on DELETE (and its grants with it); answer requests that carry its id with 404, so that clients start a new session.',
    },
  },
  [CRITERION.unknown]: {
    'fetch-failed': {
      message: "Fetching the unknown tool '{name}': {problem}; §6.3 asks for an entry explaining the name is unknown.",
      hint: UNKNOWN_HINT,
    },
    'no-entry': {
      message: "Fetching the unknown tool '{name}' returned no entry for it (keys: {keys}).",
      hint: UNKNOWN_HINT,
    },
    'no-error-text': { message: 'The entry for the unknown tool \'{name}\' has no "error" text.', hint: UNKNOWN_HINT },
    'no-available-tools': {
      message: 'The entry for the unknown tool \'{name}\' has no "available_tools" list.',
      hint: UNKNOWN_HINT,
    },
    'reveals-hidden-tools': {
      message:
        'available_tools names tools that tools/list does not show: {tools} (§10.2: do not reveal tools the client cannot use).',
      hint: SAME_LIST_HINT,
    },
    'omits-tools': {
      message: 'available_tools leaves out tools that tools/list shows: {tools}.',
      hint: SAME_LIST_HINT,
    },
    'spoils-known': {
      message:
        "Fetching '{tool}' together with the unknown name '{name}' did not return the description of '{tool}' ({problem}): one unknown name should not fail the known ones.",
      hint: 'Answer per name: descriptions for known names, a not-found entry for unknown ones.',
    },
  },
} as const satisfies Record<string, Messages>;

/** Every code the model gives, by the check that owns it. */
export const MODEL_CODES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(MODEL_MESSAGES).map(([check, messages]) => [check, Object.keys(messages)]),
);
