// The client side of `serve` over stdio: JSON-RPC lines on this process's stdin and stdout. Not
// the SDK's transport: that one loads the SDK's schemas, which would triple the proxy's memory.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineReader } from './lines.js';

export class StdioClientSide implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  async start(): Promise<void> {
    const reader = new LineReader((message) => this.onmessage?.(message as JSONRPCMessage));
    process.stdin.on('data', (chunk: Buffer) => reader.push(chunk));
    process.stdin.once('end', () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    process.stdout.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    process.stdin.pause();
  }
}
