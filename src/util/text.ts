/**
 * Text that came from a server or a linted file is untrusted: it may carry terminal escapes,
 * bidi overrides or line breaks that forge report lines. These helpers make it inert for display.
 */

// C0/C1 controls (tab kept out too), DEL, bidi embeddings/overrides/isolates, zero-width and line/paragraph separators.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * CI log commands that a runner honours anywhere in a line (Azure's `##vso[…]` and `##[…]`) or at
 * its start (GitHub's `::name …::`), broken wherever they occur in untrusted text: a space goes
 * between the two marks, so the text stays readable and no runner reads a command.
 */
const CI_COMMAND = /##(?=(?:vso)?\[)|::(?=[a-z])/gi;

export function breakCiCommands(text: string): string {
  return text.replace(CI_COMMAND, (m) => `${m[0]} ${m[1]}`);
}

/** Makes control characters visible (`\u001b` → `\x1b`) and keeps the text on one line. */
export function sanitizeLine(text: string): string {
  return makeVisible(text.replace(/\r?\n|\t/g, ' '));
}

/** Makes control, bidi and zero-width characters visible; line breaks and tabs stay as they are. */
export function makeVisible(text: string): string {
  return breakCiCommands(text).replace(UNSAFE, (ch) => {
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * String(value) that never throws: parsed JSON can hold {"toString": null}, on which String()
 * throws. Objects become their JSON text.
 */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return String(value);
  try {
    return JSON.stringify(value) ?? Object.prototype.toString.call(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Shortens text for display, marking the cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  // Never in the middle of a word when a space is near: prose is read, not parsed.
  const space = cut.search(/\s\S*$/);
  return `${space >= max * 0.7 ? cut.slice(0, space).trimEnd() : cut}…`;
}

/** JSON for one-line display: sanitised and clipped. */
export function inlineJson(value: unknown, max = 400): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return clip(sanitizeLine(s), max);
}

/** "a, b and c" */
export function listing(items: string[], max = 8): string {
  const shown = items.slice(0, max).map((s) => `'${s}'`);
  const rest = items.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/**
 * A number as en-US writes it: an integer with thousands separators (1,234,567). By hand, since the
 * first toLocaleString loads ICU's number formats (~15 ms) and every later one builds a formatter
 * (~10 µs; reports render thousands of messages).
 */
export function formatNumber(n: number): string {
  if (!Number.isInteger(n)) return String(n);
  return Math.abs(n) < 1e21 ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : n.toLocaleString('en-US');
}

/** A word as a POSIX shell reads it back: as it is when plain, else in single quotes. */
export function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
