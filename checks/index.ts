import type { LiveCheck } from '../src/run/check.js';
import pdMinimalDescriptions from './pd-minimal-descriptions.js';
import pdResourceListed from './pd-resource-listed.js';
import pdToolsParameter from './pd-tools-parameter.js';
import pdFullDescriptions from './pd-full-descriptions.js';
import pdMissingToolSelection from './pd-missing-tool-selection.js';
import pdAuthorizationEnforced from './pd-authorization-enforced.js';
import pdDescriptionRequired from './pd-description-required.js';
import pdSessionIsolation from './pd-session-isolation.js';
import pdUnknownTool from './pd-unknown-tool.js';
import pdTokenSavings from './pd-token-savings.js';
import pdSelectionFidelity from './pd-selection-fidelity.js';
import pdDescriptionsTool from './pd-descriptions-tool.js';
import mcpToolNames from './mcp-tool-names.js';
import mcpToolsPagination from './mcp-tools-pagination.js';
import mcpOutputSchema from './mcp-output-schema.js';
import mcpWireValid from './mcp-wire-valid.js';
import mcpCapabilities from './mcp-capabilities.js';
import mcpInputSchema from './mcp-input-schema.js';
import mcpInputValidation from './mcp-input-validation.js';
import mcpPing from './mcp-ping.js';
import mcpSessionLifecycle from './mcp-session-lifecycle.js';
import mcpOriginValidation from './mcp-origin-validation.js';
import mcpModernResults from './mcp-modern-results.js';
import mcpResourceNotFound from './mcp-resource-not-found.js';
import mcpToolBudget from './mcp-tool-budget.js';
import dashdashServerMetadata from './dashdash-server-metadata.js';
import dashdashToolMetadata from './dashdash-tool-metadata.js';
import dashdashResourceMetadata from './dashdash-resource-metadata.js';
import dashdashAiHelp from './dashdash-ai-help.js';
import toolcardWellKnown from './toolcard-well-known.js';
import toolcardFiles from './toolcard-files.js';

/**
 * Every live check, in report order: the nine progressive-disclosure criteria first, by number;
 * mcp-wire-valid last, since it reads the traffic of all the others.
 */
export const LIVE_CHECKS: readonly LiveCheck[] = [
  pdMinimalDescriptions,
  pdResourceListed,
  pdToolsParameter,
  pdFullDescriptions,
  pdMissingToolSelection,
  pdAuthorizationEnforced,
  pdDescriptionRequired,
  pdSessionIsolation,
  pdUnknownTool,
  pdTokenSavings,
  pdSelectionFidelity,
  pdDescriptionsTool,
  mcpToolNames,
  mcpToolsPagination,
  mcpCapabilities,
  mcpInputSchema,
  mcpInputValidation,
  mcpOutputSchema,
  mcpPing,
  mcpSessionLifecycle,
  mcpOriginValidation,
  mcpResourceNotFound,
  mcpToolBudget,
  dashdashServerMetadata,
  dashdashToolMetadata,
  dashdashResourceMetadata,
  dashdashAiHelp,
  toolcardWellKnown,
  toolcardFiles,
  mcpModernResults,
  mcpWireValid,
];

/** The nine criteria of the progressive-disclosure spec (§9 plus §6.3). */
export const PD_CRITERIA = LIVE_CHECKS.filter((c) => c.spec.criterion !== undefined);

// The lint checks live in a module of their own: `lint` of one file loads none of the live checks.
export { LINT_CHECKS } from './lint-checks.js';

/**
 * The plugins loaded by default: the quality rules (checks/quality/), written on the public plugin
 * API like any team's, their ids quality/<rule>.
 */
export { default as QUALITY_PLUGIN } from './quality/index.js';
