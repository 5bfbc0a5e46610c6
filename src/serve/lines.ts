/**
 * Newline-delimited JSON-RPC (MCP's stdio framing), read from bytes: a line is decoded once it is
 * whole, so a character split across two reads arrives whole; the bytes of a line are joined once,
 * so a long line costs time in proportion to its length; a line over `maxBytes` is dropped as it
 * arrives (its bytes are not kept) and reported. A line that is not JSON is reported too.
 */
export class LineReader {
  private pieces: Buffer[] = [];
  private length = 0;
  /** The current line went over the limit: its bytes are dropped up to its end. */
  private overflow = false;

  constructor(
    private readonly onMessage: (message: unknown) => void,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
    private readonly onDropped: (why: 'too-large' | 'not-json', bytes: number) => void = () => {},
  ) {}

  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let newline = bytes.indexOf(10, start); newline >= 0; newline = bytes.indexOf(10, start)) {
      this.take(bytes.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
    if (start < bytes.length) this.take(bytes.subarray(start));
  }

  private take(part: Buffer): void {
    this.length += part.length;
    if (this.overflow) return;
    if (this.length > this.maxBytes) {
      this.overflow = true;
      this.pieces = [];
      return;
    }
    if (part.length) this.pieces.push(part);
  }

  private endLine(): void {
    const length = this.length;
    const overflow = this.overflow;
    const line = overflow ? '' : Buffer.concat(this.pieces, length).toString('utf8').trim();
    this.pieces = [];
    this.length = 0;
    this.overflow = false;
    if (overflow) return this.onDropped('too-large', length);
    if (!line) return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return this.onDropped('not-json', length);
    }
    this.onMessage(message);
  }
}
