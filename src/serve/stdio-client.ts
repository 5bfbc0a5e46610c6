// The client side of `serve` over stdio: JSON-RPC lines on this process's stdin and stdout. Not
// the SDK's transport: that one loads the SDK's schemas, which would triple the proxy's memory.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineReader } from './lines.js';
import { errorReply } from './validate.js';

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

export class StdioClientSide implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /**
   * Told when what is written to the client waits in memory (the client reads slowly, or not at all), and when it is
   * gone.
   */
  onCongested?: () => void;
  onDrained?: () => void;
  private congested = false;

  /** `maxBytes`: the longest line accepted from the client; a longer one is answered with an error and dropped. */
  constructor(private readonly maxBytes = Number.POSITIVE_INFINITY) {}

  async start(): Promise<void> {
    // A message over the limit is answered under its request's id when its first bytes say it (else null).
    const reader = new LineReader(
      (message) => this.onmessage?.(message as JSONRPCMessage),
      this.maxBytes,
      (why, bytes, id) => {
        void this.send(
          (why === 'not-json'
            ? errorReply(null, PARSE_ERROR, 'Parse error: a line that is not JSON')
            : errorReply(
                id ?? null,
                INVALID_REQUEST,
                `Invalid Request: a message of ${bytes} bytes, over the limit of ${this.maxBytes} bytes (serve --max-message ${Math.round(this.maxBytes / 1024 / 1024)} MB)`,
              )) as unknown as JSONRPCMessage,
        );
      },
    );
    process.stdin.on('data', (chunk: Buffer) => reader.push(chunk));
    process.stdin.once('end', () => this.onclose?.());
  }

  /** Reading the client pauses while what goes the other way waits (back-pressure). */
  pauseReading(): void {
    process.stdin.pause();
  }

  resumeReading(): void {
    process.stdin.resume();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (process.stdout.write(`${JSON.stringify(message)}\n`) || this.congested) return;
    this.congested = true;
    this.onCongested?.();
    process.stdout.once('drain', () => {
      this.congested = false;
      this.onDrained?.();
    });
  }

  async close(): Promise<void> {
    process.stdin.pause();
  }
}
