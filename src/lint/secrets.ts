/**
 * Text that should not be published in tool metadata (PD §10.2, dashdash §5.1): credentials,
 * private keys, absolute paths and internal host names. Matches are masked before display.
 */

export interface SecretMatch {
  what: string;
  masked: string;
}

/** Credentials: secret in themselves, wherever they appear (also masked in a server's output). */
export const CREDENTIAL_PATTERNS: Array<[RegExp, string]> = [
  [/-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/, 'a private key'],
  [/\bAKIA[0-9A-Z]{16}\b/, 'an AWS access key id'],
  [/\bgh[pousr]_[A-Za-z0-9]{30,}\b/, 'a GitHub token'],
  [/\bgithub_pat_[A-Za-z0-9_]{40,}\b/, 'a GitHub token'],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/, 'a Slack token'],
  [/\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/, 'an API secret key'],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, 'a Google API key'],
  [/\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/, 'a JSON Web Token'],
  [/\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*/, 'a bearer token'],
];

/** Not secret, but not for publishing in tool metadata either: where the server's machine is. */
const DISCLOSURE_PATTERNS: Array<[RegExp, string]> = [
  [/(?:^|[\s"'(=:])(\/(?:home|Users|root|var|etc|opt|srv|mnt|private)\/[^\s"'),]+)/, 'an absolute file path'],
  [/\b[A-Za-z]:\\(?:[^\\\s"']+\\)+[^\\\s"']*/, 'an absolute Windows path'],
  [/\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:internal|corp|intranet|lan)\b/i, 'an internal host name'],
  [/\b(?:10\.\d{1,3}\.\d{1,3}\.\d{1,3}|192\.168\.\d{1,3}\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])\.\d{1,3}\.\d{1,3})\b/, 'a private IP address'],
];

const PATTERNS: Array<[RegExp, string]> = [...CREDENTIAL_PATTERNS, ...DISCLOSURE_PATTERNS];

/** Placeholders that only look like secrets: documentation, not leaks. */
const PLACEHOLDER = /x{4,}|\.\.\.|…|<[^>]*>|\$\{|\{\{|YOUR_|EXAMPLE|REDACTED|PLACEHOLDER|dummy|changeme/i;

export function isPlaceholder(text: string): boolean {
  return PLACEHOLDER.test(text);
}

export function mask(text: string): string {
  if (text.length <= 8) return `${text.slice(0, 2)}…`;
  return `${text.slice(0, 4)}…${text.slice(-2)} (${text.length} characters)`;
}

export function findSecrets(text: string): SecretMatch[] {
  const found: SecretMatch[] = [];
  for (const [pattern, what] of PATTERNS) {
    const m = pattern.exec(text);
    if (!m) continue;
    const hit = m[1] ?? m[0];
    if (isPlaceholder(hit)) continue;
    found.push({ what, masked: mask(hit.trim()) });
  }
  return found;
}

/** Every string in a JSON value (keys included), with its pointer. */
export function* strings(value: unknown, pointer = ''): Generator<[string, string]> {
  if (typeof value === 'string') {
    yield [pointer, value];
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* strings(value[i], `${pointer}/${i}`);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const p = `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      yield [p, k];
      yield* strings(v, p);
    }
  }
}
