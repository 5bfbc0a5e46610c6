/**
 * Edit distance for "did you mean" (ids and subcommands are short): insertions, deletions,
 * substitutions, and two neighbours swapped as one edit (the commonest typo: `inti` is one edit
 * from `init`, two from `lint`).
 */
export function distance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j], before[j - 2] + 1);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length];
}

/** Of `known`, the one closest to `word` (case aside) within `max` edits, if any: the "did you mean". */
export function closest(
  word: string,
  known: readonly string[],
  max = Math.max(2, Math.floor(word.length / 3)),
): string | undefined {
  let best: { k: string; d: number } | undefined;
  for (const k of known) {
    const d = distance(word.toLowerCase(), k.toLowerCase());
    if (d <= max && (!best || d < best.d)) best = { k, d };
  }
  return best?.k;
}
