/** How much of a line over the limit is kept: enough for its `"id"`, which JSON-RPC messages put first. */
const HEAD_BYTES = 4096;

/**
 * Newline-delimited JSON-RPC (MCP's stdio framing), read from bytes: a line is decoded once it is
 * whole, so a character split across two reads arrives whole; the bytes of a line are joined once,
 * so a long line costs time in proportion to its length; a line over `maxBytes` is dropped as it
 * arrives (only its first bytes are kept, where its id is) and reported with the id of the request
 * it was, when that can be read there. A line that is not JSON is reported too.
 */
export class LineReader {
  private pieces: Buffer[] = [];
  private length = 0;
  /** The current line went over the limit: its bytes are dropped up to its end. */
  private overflow = false;
  private head = '';

  constructor(
    private readonly onMessage: (message: unknown) => void,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
    private readonly onDropped: (why: 'too-large' | 'not-json', bytes: number, id?: string | number) => void = () => {},
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
      this.head = Buffer.concat(this.pieces).subarray(0, HEAD_BYTES).toString('utf8');
      this.pieces = [];
      return;
    }
    if (part.length) this.pieces.push(part);
  }

  private endLine(): void {
    const length = this.length;
    const overflow = this.overflow;
    const line = overflow ? '' : Buffer.concat(this.pieces, length).toString('utf8').trim();
    const head = this.head;
    this.pieces = [];
    this.length = 0;
    this.overflow = false;
    this.head = '';
    if (overflow) return this.onDropped('too-large', length, idIn(head));
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

/** The id of a JSON-RPC request from the first bytes of its line (`"id": 7` or `"id": "a"`), if they hold it. */
function idIn(head: string): string | number | undefined {
  const m = /^\s*\{(?:[^{}[\]"]|"(?:[^"\\]|\\.)*")*?"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*[,}]/.exec(head);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]) as string | number;
  } catch {
    return undefined;
  }
}
