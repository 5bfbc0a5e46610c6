// The quality rules (issue 72): what the model reads, at progressive disclosure's two levels — the
// listed one every prompt carries, the full one a fetch returns — and the resource's description
// and the server's instructions. Written as a plugin on the public plugin API (mcp-pd-check/plugin
// and nothing else of ours: a test holds it to that) and loaded by default; every rule's level is
// the user's ("rules": { "quality/<id>": "off" | "warn" | "error" }). Docs: docs/checks/quality/.
import { definePlugin, PLUGIN_API_VERSION } from '../../src/plugin/index.js';
import annotations from './annotations.js';
import fullGuidance from './full-guidance.js';
import fullParameters from './full-parameters.js';
import instructionsWorkflow from './instructions-workflow.js';
import internalDetails from './internal-details.js';
import listedHow from './listed-how.js';
import listedTooLong from './listed-too-long.js';
import listingOrder from './listing-order.js';
import resourceDescription from './resource-description.js';
import schemaShape from './schema-shape.js';
import steering from './steering.js';

export default definePlugin({
  name: 'quality',
  version: '1.0.0',
  apiVersion: PLUGIN_API_VERSION,
  checks: [
    ...listedTooLong,
    ...listedHow,
    ...fullParameters,
    ...fullGuidance,
    ...internalDetails,
    ...resourceDescription,
    ...instructionsWorkflow,
    ...annotations,
    ...steering,
    ...schemaShape,
    listingOrder,
  ],
});
