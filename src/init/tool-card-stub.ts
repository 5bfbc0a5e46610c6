import { isPlainObject } from '../protocol/payload.js';
import type { InitSource } from './source.js';
import { REVIEW } from './review.js';

/** The field that carries a card's review mark: unknown to Tool Cards, so the lint warns until it is deleted. */
export const CARD_REVIEW_FIELD = 'x-review';

/** The schema init gives a tool that has none (the MCP form for no parameters); the description gets the same. */
export const NO_PARAMETERS = { type: 'object', additionalProperties: false };

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/**
 * A Tool Card at level L1 (schema-valid; no refusal_modes, no tests yet), its safety profile
 * derived from the tool's MCP annotations: readOnlyHint → read; destructiveHint → destructive,
 * irreversible, human approval required; openWorldHint → external; otherwise mutating. Every
 * value is a proposal: the card carries a REVIEW: mark in a field of its own (the card schema has
 * no place for one), which lint-needs-review counts and lint-schema flags until it is deleted.
 */
export function toolCardStub(tool: Record<string, unknown>, source: InitSource): Record<string, unknown> {
  const annotations = isPlainObject(tool.annotations) ? tool.annotations : {};
  const readOnly = annotations.readOnlyHint === true;
  const destructive = !readOnly && annotations.destructiveHint === true;
  const external = !readOnly && !destructive && annotations.openWorldHint === true;
  const sideEffect = readOnly ? 'read' : destructive ? 'destructive' : external ? 'external' : 'mutating';
  const server =
    source.serverInfo?.name && /\S/.test(source.serverInfo.name) ? source.serverInfo.name : 'my-mcp-server';
  const version =
    source.serverInfo?.version && SEMVER.test(source.serverInfo.version) ? source.serverInfo.version : '0.1.0';
  const why = readOnly
    ? 'readOnlyHint → read'
    : destructive
      ? 'destructiveHint → destructive, human approval required'
      : external
        ? 'openWorldHint → external'
        : // Hints given and none of them marks it read-only, destructive or external, or none given at all.
          `${'readOnlyHint' in annotations || 'destructiveHint' in annotations ? 'readOnlyHint false, destructiveHint false' : 'no hint'} → mutating`;
  const exposure = exposureOf(tool, readOnly);
  return {
    [CARD_REVIEW_FIELD]: `${REVIEW} safety derived from the annotations (${why}); pii_exposure '${exposure.pii}' and secrets_exposure '${exposure.secrets}' are guesses (${exposure.why}). Check every field, then delete this one.`,
    tool_card_version: '0.1',
    tool: {
      server_id: server,
      name: tool.name,
      version,
      mcp_server_uri: serverUri(source.url) ?? `urn:mcp:${encodeURIComponent(server)}`,
      description:
        typeof tool.description === 'string' && tool.description.trim() ? tool.description : String(tool.name),
    },
    schema: { input_schema_inline: isPlainObject(tool.inputSchema) ? tool.inputSchema : NO_PARAMETERS },
    safety: {
      side_effect_class: sideEffect,
      reversible: readOnly,
      rate_limited: false,
      pii_exposure: exposure.pii,
      secrets_exposure: exposure.secrets,
      human_approval_required: destructive,
    },
  };
}

/** Words of a tool that reads or writes whatever its caller names: files, documents, databases, pages. */
const ANY_CONTENT =
  /\b(files?|director(y|ies)|folders?|paths?|contents?|documents?|disk|filesystem|database|records?|rows?|pages?|urls?)\b/i;

/**
 * A guess of what a tool may expose, from its words: one that reads whatever its caller names (a file
 * reader, a database query) may read a secret or personal data; one that writes it may write them. The
 * guess leans to exposure: a reviewer lowers a card more readily than one notices it is too low.
 */
function exposureOf(
  tool: Record<string, unknown>,
  readOnly: boolean,
): { pii: 'none' | 'medium'; secrets: 'none' | 'reads_secret_material' | 'writes_secret_material'; why: string } {
  const words = `${String(tool.name).replace(/[_.-]+/g, ' ')} ${typeof tool.description === 'string' ? tool.description : ''}`;
  const content = ANY_CONTENT.exec(words)?.[0];
  if (!content) return { pii: 'none', secrets: 'none', why: 'its words name no content it reads or writes' };
  return {
    pii: 'medium',
    secrets: readOnly ? 'reads_secret_material' : 'writes_secret_material',
    why: `it ${readOnly ? 'reads' : 'writes'} what its caller names ('${content.toLowerCase()}')`,
  };
}

/** The server's URL when it is one (init's URL may be a REVIEW: line, when it carried credentials). */
function serverUri(url: string | undefined): string | undefined {
  return url && URL.canParse(url) ? url : undefined;
}
