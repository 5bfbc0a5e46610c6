// Acme's house rules for MCP servers, as a plugin of mcp-pd-check (its docs/plugins.md): two checks
// of a live server and one of the files it ships. Load it from a config file
// ("plugins": ["mcp-pd-check-plugin-acme"]) or with --plugin; its checks are acme/<id>.
import { definePlugin, PLUGIN_API_VERSION } from 'mcp-pd-check/plugin';
import annotationsExplicit from './checks/annotations-explicit.js';
import descriptionLength from './checks/description-length.js';
import cardOwner from './checks/card-owner.js';

export default definePlugin({
  name: 'acme',
  version: '1.0.0',
  apiVersion: PLUGIN_API_VERSION,
  checks: [annotationsExplicit, descriptionLength, cardOwner],
});
