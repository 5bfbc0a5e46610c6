import { openingRequest } from '../src/transport/era.js';
import { defineLiveCheck } from '../src/run/check.js';
import type { Exchange } from '../src/transport/types.js';
import { isLoopbackAddress } from '../src/protocol/server/origin.js';

const FOREIGN = 'evil.example.com';

const messages = {
  'foreign-origin-accepted': {
    message:
      'A request with Origin: http://{foreign} was answered HTTP {status}: the server does not validate Origin, so a web page on any site can reach it through the browser (DNS rebinding).',
    hint: 'Refuse (403) a request whose Origin is not one you serve; for a local server, accept only localhost, 127.0.0.1 and [::1] (the SDKs: createMcpExpressApp or a Host/Origin allowlist).',
  },
  'foreign-host-accepted': {
    message:
      'A request with Host: {foreign} was answered HTTP {status}: a local server that does not validate Host is open to DNS rebinding.',
    hint: 'Refuse (403) a request whose Host is not localhost, 127.0.0.1 or [::1] (with your port).',
  },
  'remote-foreign-origin-accepted': {
    message:
      'A request with Origin: http://{foreign} was answered HTTP {status}. MCP: "Servers MUST validate the Origin header on all incoming connections to prevent DNS rebinding attacks"; this server is not on a loopback address, so this is a warning.',
    hint: 'Refuse (403) a request whose Origin is not one of the origins your clients use.',
  },
  'probe-failed': 'The Host/Origin probe got no answer ({problem}); nothing could be concluded.',
  'not-streamable': 'The server speaks the older HTTP+SSE transport; the probe is made for Streamable HTTP only.',
} as const;

export default defineLiveCheck({
  id: 'mcp-origin-validation',
  title: 'A foreign Origin or Host is refused (DNS rebinding protection)',
  spec: { doc: 'mcp-base', section: 'Transports: Security Warning', level: 'MUST', requirements: [] },
  needs: 'http',
  messages,
  async run(ctx) {
    const url = ctx.endpoint;
    if (!url || ctx.transport !== 'streamable-http') {
      return ctx.skip('not-streamable');
    }
    const local = isLoopbackAddress(url.hostname);
    // What opens a conversation in this run's era: initialize, or server/discover with its headers.
    const opening = openingRequest(ctx.era, { name: 'mcp-pd-check origin probe', version: '1' });
    const probes: Array<{
      code: 'foreign-origin-accepted' | 'foreign-host-accepted';
      headers: Record<string, string>;
    }> = [
      { code: 'foreign-origin-accepted', headers: { origin: `http://${FOREIGN}` } },
      // Only a local server can know its own Host: a remote one may sit behind any name.
      ...(local ? [{ code: 'foreign-host-accepted' as const, headers: { host: FOREIGN } }] : []),
    ];
    for (const probe of probes) {
      const got = await ctx.httpProbe(opening.message, { ...opening.headers, ...probe.headers });
      const ex: Exchange = {
        session: 'probe (no session)',
        method: String(opening.message.method),
        request: opening.message,
        durationMs: 0,
        era: ctx.era,
        note: `POST ${got.url} with ${Object.entries(probe.headers)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')}: ${got.status !== undefined ? `HTTP ${got.status}` : got.problem}`,
        noResponse: 'closed',
      };
      if (got.status === undefined)
        ctx.info('probe-failed', { problem: got.problem ?? 'no status' }, { transcript: [ex] });
      else if (got.status < 400 || got.status > 499) {
        if (local) ctx.fail(probe.code, { foreign: FOREIGN, status: got.status }, { transcript: [ex] });
        else ctx.warn('remote-foreign-origin-accepted', { foreign: FOREIGN, status: got.status }, { transcript: [ex] });
      }
    }
  },
});
