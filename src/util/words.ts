/**
 * Words and sentences of text in any language: Intl.Segmenter knows scripts written without
 * spaces (Japanese, Chinese, Thai), where splitting on spaces would make a sentence one "word".
 */
// Made on first use: each loads ICU break data (~5 ms), which a start that segments nothing need not pay.
let WORDS: Intl.Segmenter | undefined;
let SENTENCES: Intl.Segmenter | undefined;

/** The words of a text (punctuation and spaces left out), as written. */
export function words(text: string, atMost = Infinity): string[] {
  const out: string[] = [];
  for (const s of (WORDS ??= new Intl.Segmenter(undefined, { granularity: 'word' })).segment(text)) {
    if (!s.isWordLike) continue;
    out.push(s.segment);
    // Enough to say whether there are that many (segmenting is the cost: ~30 µs a sentence).
    if (out.length >= atMost) break;
  }
  return out;
}

/** The words of a text in lower case: the terms a search index compares. */
export function terms(text: string): string[] {
  return words(text).map((w) => w.toLowerCase());
}

/** The sentences of a text, trimmed, empty ones left out. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const s of (SENTENCES ??= new Intl.Segmenter(undefined, { granularity: 'sentence' })).segment(text)) {
    const sentence = s.segment.trim();
    if (sentence) out.push(sentence);
  }
  return out;
}

/** The words of a tool name: get_note, getNote, get-note and get.note all give [get, note]. */
export function nameTerms(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s_.\-/]+/).filter(Boolean).map((w) => w.toLowerCase());
}
