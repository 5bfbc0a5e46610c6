// One raw HTTP POST to an MCP endpoint, with headers fetch will not send (Host): what the
// transport-security checks ask (DNS rebinding, a request without a session id).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { JsonObject } from './types.js';

export interface ProbeResult {
  status?: number;
  body?: string;
  problem?: string;
}

const MAX_BODY = 64 * 1024;

/**
 * One POST, answered within `timeoutMs` from its start: the status and the first 64 KB of the body
 * that came by then. A deadline, not an idle timer — a server that trickles keep-alive comments on a
 * stream that never ends would reset an idle timer for ever.
 */
export function postProbe(
  url: URL,
  headers: Record<string, string>,
  message: JsonObject,
  timeoutMs: number,
): Promise<ProbeResult> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const body = JSON.stringify(message);
  return new Promise((resolve) => {
    let status: number | undefined;
    let text = '';
    let settled = false;
    const finish = (result: ProbeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      req.destroy();
      resolve(result);
    };
    const answered = () => finish({ status, ...(text ? { body: text.slice(0, MAX_BODY) } : {}) });
    const req = send(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        status = res.statusCode;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text.length >= MAX_BODY) answered();
        });
        res.on('end', answered);
        res.on('close', answered);
      },
    );
    // Its status counts once it came: the body read so far is what the server said by then.
    const deadline = setTimeout(
      () => (status !== undefined ? answered() : finish({ problem: `no response within ${timeoutMs} ms` })),
      timeoutMs,
    );
    req.on('error', (err) =>
      finish(
        status !== undefined
          ? { status, ...(text ? { body: text.slice(0, MAX_BODY) } : {}) }
          : { problem: err.message },
      ),
    );
    req.end(body);
  });
}
