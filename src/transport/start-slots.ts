// How many server processes may be starting at once. A start that costs much CPU (a Python server
// importing its libraries, a JVM, npx resolving a package) competes with every other start for the
// machine's cores: ten at once on two cores take ten times as long each. Unlimited until a run
// finds its server costly to start (src/run/heavy.ts); shared by the targets of every protocol era.
export class StartSlots {
  private limit = Number.POSITIVE_INFINITY;
  private busy = 0;
  private readonly waiting: Array<() => void> = [];

  /** At most `count` starts at once from now on. */
  restrict(count: number): void {
    this.limit = Math.max(1, count);
  }

  get restricted(): number | undefined {
    return Number.isFinite(this.limit) ? this.limit : undefined;
  }

  /** Waits for a slot; the function returned gives it back (once, however often it is called). */
  async take(): Promise<() => void> {
    while (this.busy >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.busy++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.busy--;
      this.waiting.shift()?.();
    };
  }
}
