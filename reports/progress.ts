/**
 * The live line on stderr while checks run: which check, how far, how many sessions it opens.
 * Shown only on a terminal; it is erased before the report is printed.
 */
export class ProgressLine {
  private shown = false;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly enabled: boolean,
  ) {}

  update(index: number, total: number, id: string, sessions?: number): void {
    const extra = sessions ? ` (${sessions} session${sessions === 1 ? '' : 's'})` : '';
    this.show(`[${index + 1}/${total}] ${id}${extra}…`);
  }

  /** A fleet: how many servers are done, and which are being checked. */
  fleet(done: number, total: number, running: readonly string[]): void {
    this.show(`[${done}/${total} servers done]${running.length ? ` checking ${running.join(', ')}…` : ''}`);
  }

  /** While the server starts (a cold `npx -y` or `uvx` takes seconds). */
  waiting(seconds: number): void {
    this.show(`waiting for the server to start (${seconds} s)…`);
  }

  private show(line: string): void {
    if (!this.enabled) return;
    const width = Math.max(20, (this.stream.columns || 80) - 1);
    this.stream.write(`\r\u001b[K${line.slice(0, width)}`);
    this.shown = true;
  }

  clear(): void {
    if (this.shown) this.stream.write('\r\u001b[K');
    this.shown = false;
  }
}
