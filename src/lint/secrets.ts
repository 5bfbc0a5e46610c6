/**
 * Text that should not be published in tool metadata (PD §10.2, dashdash §5.1): credentials,
 * private keys, absolute paths and internal host names. Credentials are found by secretlint's
 * recommended rules plus the patterns below (secretlint wants context this metadata rarely has,
 * e.g. a key id alone, or a PEM header inside a JSON string); the disclosure rules (paths, hosts,
 * private IPs) are ours. Matches are masked before display.
 */

import { joinPointer } from '../util/json-pointer.js';
import { CREDENTIAL_PATTERNS, isPlaceholder } from '../safety/credentials.js';

export interface SecretMatch {
  kind: 'credential' | 'disclosure';
  what: string;
  masked: string;
}

/** Not secret, but not for publishing in tool metadata either: where the server's machine is. */
const DISCLOSURE_PATTERNS: Array<[RegExp, string]> = [
  [/(?:^|[\s"'(=:])(\/(?:home|Users|root|var|etc|opt|srv|mnt|private)\/[^\s"'),]+)/, 'an absolute file path'],
  [/\b[A-Za-z]:\\(?:[^\\\s"']+\\)+[^\\\s"']*/, 'an absolute Windows path'],
  [/\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:internal|corp|intranet|lan)\b/i, 'an internal host name'],
  [
    /\b(?:10\.\d{1,3}\.\d{1,3}\.\d{1,3}|192\.168\.\d{1,3}\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])\.\d{1,3}\.\d{1,3})\b/,
    'a private IP address',
  ],
];

export function mask(text: string): string {
  if (text.length <= 8) return `${text.slice(0, 2)}…`;
  return `${text.slice(0, 4)}…${text.slice(-2)} (${text.length} characters)`;
}

/** What every pattern above needs to match: most strings of a lint stop at this one test. */
const MAYBE =
  /PRIVATE KEY|AKIA|gh[pousr]_|github_pat_|xox[abprs]-|sk-|AIza|eyJ|Bearer|passw|pwd|passphrase|\/(?:home|Users|root|var|etc|opt|srv|mnt|private)\/|[A-Za-z]:\\|\.(?:internal|corp|intranet|lan)\b|\b(?:10|192\.168|172)\./i;

/** What our own patterns find in one string (synchronous). */
export function findSecrets(text: string): SecretMatch[] {
  const found: SecretMatch[] = [];
  if (!MAYBE.test(text)) return found;
  for (const [patterns, kind] of [
    [CREDENTIAL_PATTERNS, 'credential'],
    [DISCLOSURE_PATTERNS, 'disclosure'],
  ] as const) {
    for (const [pattern, what] of patterns) {
      const m = pattern.exec(text);
      if (!m) continue;
      const hit = m[1] ?? m[0];
      if (isPlaceholder(hit)) continue;
      found.push({ kind, what, masked: mask(hit.trim()) });
    }
  }
  return found;
}

/**
 * Only strings with a long run of token characters mixing letters and digits (or a PEM header) can
 * hold what secretlint looks for: the rest, nearly all tool metadata, skip it (and its load time).
 */
function maybeToken(text: string): boolean {
  if (text.includes('PRIVATE KEY')) return true;
  for (const run of text.match(/[A-Za-z0-9_+/=-]{20,}/g) ?? []) if (/\d/.test(run) && /[A-Za-z]/.test(run)) return true;
  return false;
}

type Secretlint = { lint(text: string): Promise<Array<{ start: number; end: number; what: string }>> };
let secretlint: Promise<Secretlint> | undefined;

/** secretlint with its recommended preset, loaded on first use (it is only needed by the lint). */
function loadSecretlint(): Promise<Secretlint> {
  secretlint ??= (async () => {
    const [{ lintSource }, { creator }] = await Promise.all([
      import('@secretlint/core'),
      import('@secretlint/secretlint-rule-preset-recommend'),
    ]);
    const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] };
    return {
      async lint(text: string) {
        const result = await lintSource({
          source: { filePath: '/metadata.txt', content: text, contentType: 'text' },
          options: { config },
        });
        return result.messages.map((m) => ({
          start: m.range[0],
          end: m.range[1],
          what: `a credential (secretlint: ${m.ruleId.replace(/^@secretlint\/secretlint-rule-/, '')})`,
        }));
      },
    };
  })();
  return secretlint;
}

/**
 * Every secret in a set of strings (pointer → text): our patterns on each, and secretlint once
 * over the strings that could hold a token, joined. A hit both find is reported once.
 */
export async function detectSecrets(
  entries: Array<[string, string]>,
): Promise<Array<SecretMatch & { pointer: string }>> {
  const found: Array<SecretMatch & { pointer: string }> = [];
  for (const [pointer, text] of entries) for (const m of findSecrets(text)) found.push({ ...m, pointer });
  const candidates = entries.filter(([, text]) => maybeToken(text));
  if (!candidates.length) return found;
  const engine = await loadSecretlint();
  let joined = '';
  const starts: number[] = [];
  for (const [, text] of candidates) {
    starts.push(joined.length);
    joined += `${text}\n`;
  }
  for (const hit of await engine.lint(joined)) {
    let i = starts.length - 1;
    while (i > 0 && starts[i] > hit.start) i--;
    const [pointer] = candidates[i];
    const masked = mask(joined.slice(hit.start, hit.end).trim());
    if (found.some((f) => f.pointer === pointer && f.masked === masked)) continue;
    found.push({ kind: 'credential', what: hit.what, masked, pointer });
  }
  return found;
}

/** Every string in a JSON value (keys included), with its pointer. */
export function* strings(value: unknown, pointer = ''): Generator<[string, string]> {
  if (typeof value === 'string') {
    yield [pointer, value];
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* strings(value[i], joinPointer(pointer, i));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const p = joinPointer(pointer, k);
      yield [p, k];
      yield* strings(v, p);
    }
  }
}
