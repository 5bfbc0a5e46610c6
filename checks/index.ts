import type { LiveCheck } from '../src/runner.js';
import pdMinimalDescriptions from './pd-minimal-descriptions.js';
import pdResourceListed from './pd-resource-listed.js';
import pdToolsParameter from './pd-tools-parameter.js';
import pdFullDescriptions from './pd-full-descriptions.js';
import pdMissingToolSelection from './pd-missing-tool-selection.js';
import pdAuthorizationEnforced from './pd-authorization-enforced.js';
import pdDescriptionRequired from './pd-description-required.js';
import pdSessionIsolation from './pd-session-isolation.js';
import pdUnknownTool from './pd-unknown-tool.js';

/** Every live check, in report order (the nine progressive-disclosure criteria first, by number). */
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
];
