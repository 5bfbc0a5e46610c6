import { defineCheck } from '../src/check.js';
import type { LiveContext } from '../src/context.js';
import { callArguments, TOOL_DESCRIPTION_REQUIRED } from '../src/pd/calls.js';
import { anySignalledCode, findSignalledError, invalidErrorCode } from '../src/pd/errors.js';
import { descriptionsUri, sameUri } from '../src/pd/uri.js';
import { inlineJson } from '../src/text.js';

/** Past this many failing tools the rest are summarised in one finding. */
const MAX_FINDINGS = 20;

export default defineCheck<LiveContext>({
  id: 'pd-description-required',
  title: 'Calling a tool before fetching its description fails with TOOL_DESCRIPTION_REQUIRED',
  spec: {
    doc: 'progressive-disclosure', section: '6.2', level: 'MUST', criterion: 7,
    requirements: ['PD-5.1-c', 'PD-6.2-a'],
  },
  needs: 'session',
  opens: 1,
  async run(ctx) {
    const tools = ctx.toolsToCallOrStop();
    const listed = ctx.discovery.descriptionsResource?.uri;
    const session = await ctx.session();
    const forms = new Set<string>();
    const { fail, done } = ctx.capped(MAX_FINDINGS);
    const hint = `Refuse the call with {"error":{"code":"${TOOL_DESCRIPTION_REQUIRED}","message":…,"resource_uri":"<resource>?tools=<name>"}} until the description was fetched in this session (if pd-session-isolation fails too, grants leak between sessions).`;

    for (const name of tools) {
      const ex = await session.callTool(name, callArguments(ctx.discovery, name));
      const location = { tool: name };
      const transcript = [ex];
      if (ex.noResponse) {
        fail(`Calling '${name}' before fetching its description got no response (${ex.note ?? ex.noResponse}).`, { location, transcript, hint });
        continue;
      }
      const bad = invalidErrorCode(ex);
      if (bad) {
        fail(`Calling '${name}' unfetched: ${bad}. Put the string code in error.data.code and use an integer error.code.`, { location, transcript, hint });
        continue;
      }
      const signal = findSignalledError(ex, TOOL_DESCRIPTION_REQUIRED);
      if (!signal) {
        const other = anySignalledCode(ex);
        const what = other ? `was refused with ${other} instead`
          : ex.response?.error ? `failed with a JSON-RPC error without the code: ${inlineJson(ex.response.error, 160)}`
          : (ex.response?.result as { isError?: boolean } | undefined)?.isError ? 'failed with a tool error that does not carry the code'
          : 'ran, although its description had not been fetched in this session';
        fail(`Calling '${name}' before fetching its description ${what}.`, { location, transcript, hint });
        continue;
      }
      if (!signal.accepted) {
        fail(`Calling '${name}' unfetched mentions ${TOOL_DESCRIPTION_REQUIRED} only in message text, where clients cannot read it as a code.`, { location, transcript, hint });
        continue;
      }
      forms.add(signal.form + (signal.form === 'JSON text in a successful result' || signal.form === 'structuredContent of a tool result' ? (signal.isError ? ' (isError: true)' : ' (no isError)') : ''));
      const uri = signal.payload.resource_uri;
      if (typeof uri !== 'string') {
        fail(`The ${TOOL_DESCRIPTION_REQUIRED} error for '${name}' has no resource_uri telling the client what to fetch (§6.2).`, { location, transcript, hint });
      } else if (listed && !sameUri(uri, descriptionsUri(listed, [name]))) {
        fail(`The ${TOOL_DESCRIPTION_REQUIRED} error for '${name}' has resource_uri '${uri}', but fetching this tool means '${descriptionsUri(listed, [name])}'.`, { location, transcript, hint });
      }
      if (typeof signal.payload.message !== 'string' || !signal.payload.message.trim()) {
        ctx.warn(`The ${TOOL_DESCRIPTION_REQUIRED} error for '${name}' has no message (§6.2 shows one).`, {
          location, transcript, hint: `Add "message": "Tool '${name}' requires fetching its description before use."`,
        });
      }
      if (signal.isError === false) {
        ctx.warn(`The refusal of '${name}' is a tool result without isError: true; MCP marks failed tool calls with isError.`, {
          location, transcript, hint: 'Set "isError": true on the refusal result.',
        });
      }
    }
    done();
    if (forms.size) ctx.info(`Refusals signalled as: ${[...forms].join(', ')}.`);
  },
});
