/** Newline-delimited JSON-RPC (MCP's stdio framing): a line that is not JSON is dropped. */
export class LineReader {
  private buffer = '';

  constructor(private readonly onMessage: (message: unknown) => void) {}

  push(chunk: Buffer | string): void {
    this.buffer += chunk.toString();
    // One pass over the buffer (a large chunk holds many lines), then one slice of the rest.
    let start = 0;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n', start)) >= 0) {
      const line = this.buffer.slice(start, newline).trim();
      start = newline + 1;
      if (!line) continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      this.onMessage(message);
    }
    this.buffer = this.buffer.slice(start);
  }
}
