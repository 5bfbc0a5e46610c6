import { isPlaceholder } from './credentials.js';

/**
 * Secrets on a server's command line (DESIGN, "Calling tools": secrets on the command line): a
 * server is often started with its key as an argument — `--access-token=…`, `--api-key X`,
 * `API_KEY=… server`, `postgres://user:pass@host`. One rule, read by the redactor (masked in
 * every output), by init (a `${VAR}` placeholder in the config it writes) and by the lint
 * (lint-no-secrets: a literal key in a config's command).
 */

/** Words of a flag name that say its value is a secret: --access-token, --api-key, --client-secret… */
const SECRET_WORD =
  /^(tokens?|keys?|apikey|secrets?|password|passwd|pass|passphrase|pwd|auth|authorization|credentials?|cookie|pat|bearer|jwt)$/i;
/**
 * …unless another word says the value is where the secret is, or something about it: --key-file, --token-url,
 * --auth-type.
 */
const NOT_THE_SECRET =
  /^(file|path|dir|directory|env|var|variable|name|id|type|header|url|uri|endpoint|host|length|size|count|timeout|ttl|expiry|expires|mode|method|scheme|provider|store|helper|command|cmd)$/i;
/** Shorter values are not masked ("1", "true", "dev" would mask every such word of a report). */
const MIN_LENGTH = 6;
const HARMLESS = /^(true|false|yes|no|null|none|undefined|on|off)$/i;

export interface ArgumentSecret {
  /** The word of the command line that holds it (0-based, in the words given). */
  index: number;
  value: string;
  /** Where it came from, shown in its place: "--access-token", "API_KEY=", "a URL's password". */
  source: string;
  /** The environment variable a written config reads it from instead. */
  variable: string;
  /** That word with the value replaced by `${variable}`. */
  rewritten: string;
}

/** The words of a flag or variable name: `--accessToken` → access, token. */
function wordsOf(name: string): string[] {
  return name
    .replace(/^-+/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean);
}

/** Whether a flag (or variable) name says that its value is a secret. */
export function isSecretFlag(name: string): boolean {
  const words = wordsOf(name);
  return words.some((w) => SECRET_WORD.test(w)) && !words.some((w) => NOT_THE_SECRET.test(w));
}

function worthMasking(value: string): boolean {
  return value.length >= MIN_LENGTH && !HARMLESS.test(value) && !isPlaceholder(value) && !/^\$\w+$/.test(value);
}

function variableOf(name: string): string {
  return (
    wordsOf(name)
      .join('_')
      .toUpperCase()
      .replace(/[^A-Z0-9_]/g, '_') || 'SECRET'
  );
}

/** A URL's password: `scheme://user:password@host`. */
const URL_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)([^@\s]+)(@)/i;
/** A query parameter, as written: `?name=value` or `&name=value`. */
const QUERY_PARAMETER = /([?&])([^=&#\s]+)=([^&#\s]*)/g;

/**
 * Secrets inside a URL (its password; query values whose names say they are secrets), each with the URL rewritten
 * around a placeholder.
 */
function urlSecrets(
  text: string,
  prefix: string,
): Array<{ value: string; variable: string; source: string; rewrite: (placeholder: string) => string }> {
  const found: Array<{ value: string; variable: string; source: string; rewrite: (placeholder: string) => string }> =
    [];
  const password = URL_PASSWORD.exec(text);
  if (password && worthMasking(password[2])) {
    found.push({
      value: password[2],
      variable: `${prefix}PASSWORD`,
      source: "a URL's password",
      rewrite: (p) => text.replace(URL_PASSWORD, `$1${p}$3`),
    });
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return found;
  for (const m of text.matchAll(QUERY_PARAMETER)) {
    const [whole, sep, key, value] = m as unknown as [string, string, string, string];
    if (!isSecretFlag(key) || !worthMasking(value)) continue;
    const at = m.index;
    found.push({
      value,
      variable: variableOf(key),
      source: `a URL's ${key}=`,
      rewrite: (p) => `${text.slice(0, at)}${sep}${key}=${p}${text.slice(at + whole.length)}`,
    });
  }
  return found;
}

/**
 * The secrets in a command line's words, each with where it is and how a config would name it
 * instead. A value that is already a placeholder (`${VAR}`, `$VAR`, `<token>`) is none.
 */
export function argumentSecrets(args: readonly string[]): ArgumentSecret[] {
  const found: ArgumentSecret[] = [];
  const taken = new Set<string>();
  const add = (
    index: number,
    value: string,
    source: string,
    name: string,
    rewrite: (placeholder: string) => string,
  ) => {
    let variable = name;
    for (let n = 2; taken.has(variable); n++) variable = `${name}_${n}`;
    taken.add(variable);
    found.push({ index, value, source, variable, rewritten: rewrite(`\${${variable}}`) });
  };
  const inUrl = (index: number, word: string, text: string, prefix: string) => {
    const head = word.slice(0, word.length - text.length);
    for (const s of urlSecrets(text, prefix))
      add(index, s.value, s.source, s.variable, (p) => `${head}${s.rewrite(p)}`);
  };
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    const flagWithValue = /^(--?[A-Za-z][\w.-]*)=([\s\S]*)$/.exec(word);
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/.exec(word);
    const flag = /^--?[A-Za-z][\w.-]*$/.test(word) ? word : undefined;
    if (flagWithValue) {
      const [, name, value] = flagWithValue as unknown as [string, string, string];
      if (isSecretFlag(name) && worthMasking(value)) add(i, value, name, variableOf(name), (p) => `${name}=${p}`);
      else inUrl(i, word, value, `${variableOf(name)}_`);
    } else if (assignment) {
      const [, name, value] = assignment as unknown as [string, string, string];
      if (isSecretFlag(name) && worthMasking(value)) add(i, value, `${name}=`, name, (p) => `${name}=${p}`);
      else inUrl(i, word, value, `${name}_`);
    } else if (
      flag &&
      isSecretFlag(flag) &&
      i + 1 < args.length &&
      !args[i + 1].startsWith('-') &&
      worthMasking(args[i + 1])
    ) {
      add(i + 1, args[i + 1], flag, variableOf(flag), (p) => p);
      i++;
    } else {
      inUrl(i, word, word, 'SERVER_URL_');
    }
  }
  return found;
}

/**
 * A command line fit for a file the user commits: every secret replaced by `${VARIABLE}` (the
 * checker reads it from the environment when it runs the config), with the variables to set.
 */
export function publishableArguments(args: readonly string[]): {
  args: string[];
  variables: Array<{ variable: string; source: string }>;
} {
  const out = [...args];
  const secrets = argumentSecrets(args);
  for (const s of secrets) {
    // Several secrets in one word (a URL's password and its key): the later ones are replaced in
    // what the earlier left.
    out[s.index] = out[s.index] === args[s.index] ? s.rewritten : out[s.index].split(s.value).join(`\${${s.variable}}`);
  }
  return { args: out, variables: secrets.map((s) => ({ variable: s.variable, source: s.source })) };
}
