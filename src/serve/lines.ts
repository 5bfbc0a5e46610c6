/** Newline-delimited JSON-RPC (MCP's stdio framing): a line that is not JSON is dropped. */
export class LineReader {
  private buffer = '';

  constructor(private readonly onMessage: (message: unknown) => void) {}

  push(chunk: Buffer | string): void {
    this.buffer += chunk.toString();
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      if (!line) continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      this.onMessage(message);
    }
  }
}
