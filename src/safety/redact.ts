import { CREDENTIAL_PATTERNS, isPlaceholder } from './credentials.js';
import { argumentSecrets } from './arguments.js';
import { escapeRegExp } from '../util/regexp.js';

/**
 * Secrets never reach a report. The checker knows some secrets by value (its own environment's
 * secret-looking variables, --header values, --env values with secret names) and masks them
 * wherever they would appear; credentials it does not know (a token in a server's answer) are
 * recognised by the lint's credential rules and masked too.
 */

/** Variable names that hold secrets by convention (GitHub, npm, cloud SDKs, databases…). */
const SECRET_NAME =
  /TOKEN|KEY|SECRET|PASSW(OR)?D|PASSPHRASE|AUTH|CREDENTIAL|COOKIE|PRIVATE|SIGNING|SESSION|DSN|CERT|_PAT\b|^PAT_/i;
/** Shorter values are not masked: "1", "true" or "dev" would mask every such word of a report. */
export const MIN_SECRET_LENGTH = 6;
const HARMLESS = /^(true|false|yes|no|null|none|undefined|0|1)$/i;
/** Up to this many known secrets, text is searched for each before the expression runs. */
const FEW_SECRETS = 16;
/** `scheme://user:password@host`: the password is a secret whatever the variable is called. */
const URL_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:([^@\s]+)@/i;

export interface KnownSecret {
  value: string;
  /** Where it came from, shown in its place: "$GITHUB_TOKEN", "--header X-Api-Key". */
  source: string;
}

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Variables that name a file or folder (of certificates, keys, credentials): their value is where, not what. */
const PATH_NAME = /(_DIR|_FILE|_PATH|_CERTS?|CA_BUNDLE|APPLICATION_CREDENTIALS)$/i;
/** An absolute or home-relative path, or several joined by ':' (no spaces: a passphrase has them). */
const PATH_VALUE = /^(~?\/|[A-Za-z]:\\)[^\s]*$/;

/** Whether a secret-named variable holds a path (NODE_EXTRA_CA_CERTS=/etc/ssl/ca.pem): not a secret itself. */
function isPathSetting(name: string, value: string): boolean {
  return PATH_NAME.test(name) && PATH_VALUE.test(value.trim());
}

function worthMasking(value: string): boolean {
  return value.length >= MIN_SECRET_LENGTH && !HARMLESS.test(value.trim());
}

/** The secrets of an environment: values of secret-looking variables, and passwords in URLs. */
export function environmentSecrets(env: Record<string, string | undefined>): KnownSecret[] {
  const found: KnownSecret[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (typeof value !== 'string') continue;
    if (isSecretName(name) && worthMasking(value) && !isPathSetting(name, value))
      found.push({ value, source: `$${name}` });
    const password = URL_PASSWORD.exec(value)?.[1];
    if (password && worthMasking(password)) found.push({ value: password, source: `$${name}` });
  }
  return found;
}

/** Every header value is a secret; so is the credential after an auth scheme ("Bearer <token>"). */
export function headerSecrets(headers: Record<string, string>): KnownSecret[] {
  const found: KnownSecret[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (worthMasking(value)) found.push({ value, source: `--header ${name}` });
    const credential = /^\S+\s+(\S.*)$/.exec(value)?.[1];
    if (credential && worthMasking(credential)) found.push({ value: credential, source: `--header ${name}` });
  }
  return found;
}

/** The secrets of a --url: its password and its query values (API keys often travel there). */
export function urlSecrets(url: URL): KnownSecret[] {
  const found: KnownSecret[] = [];
  for (const password of new Set([url.password, safeDecode(url.password)])) {
    if (worthMasking(password)) found.push({ value: password, source: '--url password' });
  }
  for (const [key, value] of url.searchParams) {
    if (worthMasking(value)) found.push({ value, source: `--url ${key}=` });
    const raw = encodeURIComponent(value);
    if (raw !== value && worthMasking(raw)) found.push({ value: raw, source: `--url ${key}=` });
  }
  return found;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Replaces known secrets and recognisable credentials in text and in JSON values. Longest secrets
 * first, so that a secret containing another is masked whole.
 */
export class Redactor {
  private readonly secrets: KnownSecret[];
  private readonly anyKnown: RegExp | undefined;
  /** Where each secret came from, by value: built once, read on every hit. */
  private readonly sourceOf: Map<string, string>;

  constructor(secrets: KnownSecret[] = []) {
    const byValue = new Map<string, KnownSecret>();
    for (const s of secrets) if (!byValue.has(s.value)) byValue.set(s.value, s);
    this.secrets = [...byValue.values()].sort((a, b) => b.value.length - a.value.length);
    this.sourceOf = new Map(this.secrets.map((s) => [s.value, s.source]));
    this.anyKnown = this.secrets.length
      ? new RegExp(this.secrets.map((s) => escapeRegExp(s.value)).join('|'), 'g')
      : undefined;
  }

  /**
   * A redactor for a run: the environment's secrets plus those of the command line (--header,
   * --env, the --url's credentials, and the server command's own arguments: `--api-key X`).
   */
  static forRun(
    options: {
      env?: Record<string, string | undefined>;
      headers?: Record<string, string>;
      serverEnv?: Record<string, string>;
      url?: URL;
      serverArgs?: readonly string[];
    } = {},
  ): Redactor {
    return new Redactor([
      ...environmentSecrets(options.env ?? process.env),
      ...environmentSecrets(options.serverEnv ?? {}),
      ...headerSecrets(options.headers ?? {}),
      ...(options.url ? urlSecrets(options.url) : []),
      ...argumentSecrets(options.serverArgs ?? []).map((s) => ({ value: s.value, source: s.source })),
    ]);
  }

  /** The secrets it knows (to build one redactor from many runs'). */
  known(): KnownSecret[] {
    return [...this.secrets];
  }

  /** How many secrets it knows by value (for tests and --verbose). */
  get size(): number {
    return this.secrets.length;
  }

  text(text: string): string {
    let out = text;
    if (this.anyKnown && this.mayHold(out)) {
      this.anyKnown.lastIndex = 0;
      if (this.anyKnown.test(out)) {
        out = out.replace(this.anyKnown, (hit) => `[redacted ${this.sourceOf.get(hit) ?? 'secret'}]`);
      }
    }
    return maskCredentials(out);
  }

  /**
   * Whether a known secret may be in the text. A few secrets are looked for one by one: a plain
   * substring search is many times faster than the regular expression's alternation on a long
   * text (a merged report of 25 MB: 10 ms, not 150); many are left to the expression.
   */
  private mayHold(text: string): boolean {
    return this.secrets.length > FEW_SECRETS || this.secrets.some((s) => text.includes(s.value));
  }

  /** A copy of a JSON value with every string (keys included) redacted; iterative, any depth. */
  value<T>(root: T): T {
    return deepMapStrings(root, (s) => this.text(s));
  }
}

/**
 * The secrets a text held where the run masked them (`[redacted …]`, as `text` writes it): what
 * a server said is masked before any check reads it, so a check that asks whether a server
 * published a secret finds the mask.
 */
export function redactionsIn(text: string): string[] {
  return [...text.matchAll(/\[redacted ([^\]\n]{1,80})\]/g)].map((m) => m[1]);
}

/** A first look that every credential pattern needs to match: most strings stop here. */
const MAYBE_CREDENTIAL =
  /PRIVATE KEY|AKIA|gh[pousr]_|github_pat_|xox[abprs]-|sk-|AIza|eyJ|Bearer|passw|pwd|passphrase/i;

/** Credentials recognised by shape (the lint's rules), masked as the lint masks them. */
export function maskCredentials(text: string): string {
  if (!MAYBE_CREDENTIAL.test(text)) return text;
  let out = text;
  for (const [pattern, what] of CREDENTIAL_PATTERNS) {
    if (!pattern.test(out)) continue;
    const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    out = out.replace(global, (hit) => (isPlaceholder(hit) ? hit : `[redacted ${what}]`));
  }
  return out;
}

/**
 * A copy of a JSON value with every string, keys included, mapped; iterative, since a hostile
 * message may be nested 128 levels deep.
 */
export function deepMapStrings<T>(root: T, map: (s: string) => string): T {
  type Container = Record<string, unknown> | unknown[];
  const stack: Array<[Container, Container]> = [];
  const copyOf = (v: unknown): unknown => {
    if (typeof v === 'string') return map(v);
    if (typeof v !== 'object' || v === null) return v;
    const copy: Container = Array.isArray(v) ? new Array(v.length) : {};
    stack.push([v as Container, copy]);
    return copy;
  };
  const result = copyOf(root);
  while (stack.length) {
    const [from, to] = stack.pop()!;
    if (Array.isArray(from)) {
      for (let i = 0; i < from.length; i++) (to as unknown[])[i] = copyOf(from[i]);
    } else {
      for (const key of Object.keys(from)) {
        // defineProperty: a key named __proto__ stays a plain data key.
        Object.defineProperty(to, map(key), {
          value: copyOf(from[key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
  }
  return result as T;
}
