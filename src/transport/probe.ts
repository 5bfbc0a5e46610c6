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

export function postProbe(url: URL, headers: Record<string, string>, message: JsonObject, timeoutMs: number): Promise<ProbeResult> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const body = JSON.stringify(message);
  return new Promise((resolve) => {
    const req = send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body), ...headers },
      timeout: timeoutMs,
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (text.length < MAX_BODY) text += chunk;
        else res.destroy();
      });
      const done = () => resolve({ status: res.statusCode, ...(text ? { body: text.slice(0, MAX_BODY) } : {}) });
      res.on('end', done);
      res.on('close', done);
    });
    req.on('timeout', () => {
      req.destroy();
      resolve({ problem: `no response within ${timeoutMs} ms` });
    });
    req.on('error', (err) => resolve({ problem: err.message }));
    req.end(body);
  });
}
