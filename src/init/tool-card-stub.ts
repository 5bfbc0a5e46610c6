import { isPlainObject } from '../pd/payload.js';
import type { InitSource } from './init.js';

/** The schema init gives a tool that has none (the MCP form for no parameters); the description gets the same. */
export const NO_PARAMETERS = { type: 'object', additionalProperties: false };

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/**
 * A Tool Card at level L1 (schema-valid; no refusal_modes, no tests yet), its safety profile
 * derived from the tool's MCP annotations: readOnlyHint → read; destructiveHint → destructive,
 * irreversible, human approval required; openWorldHint → external; otherwise mutating. Every
 * value is a proposal to review (the card schema is closed, so the marks live in the summary).
 */
export function toolCardStub(tool: Record<string, unknown>, source: InitSource): Record<string, unknown> {
  const annotations = isPlainObject(tool.annotations) ? tool.annotations : {};
  const readOnly = annotations.readOnlyHint === true;
  const destructive = !readOnly && annotations.destructiveHint === true;
  const external = !readOnly && !destructive && annotations.openWorldHint === true;
  const sideEffect = readOnly ? 'read' : destructive ? 'destructive' : external ? 'external' : 'mutating';
  const server = source.serverInfo?.name && /\S/.test(source.serverInfo.name) ? source.serverInfo.name : 'my-mcp-server';
  const version = source.serverInfo?.version && SEMVER.test(source.serverInfo.version) ? source.serverInfo.version : '0.1.0';
  return {
    tool_card_version: '0.1',
    tool: {
      server_id: server,
      name: tool.name,
      version,
      mcp_server_uri: source.url ?? `urn:mcp:${encodeURIComponent(server)}`,
      description: typeof tool.description === 'string' && tool.description.trim() ? tool.description : String(tool.name),
    },
    schema: { input_schema_inline: isPlainObject(tool.inputSchema) ? tool.inputSchema : NO_PARAMETERS },
    safety: {
      side_effect_class: sideEffect,
      reversible: readOnly,
      rate_limited: false,
      pii_exposure: 'none',
      secrets_exposure: 'none',
      human_approval_required: destructive,
    },
  };
}
