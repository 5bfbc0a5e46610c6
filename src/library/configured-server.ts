// One server of a config file, as the library runs it, and the small pieces every shape's reader
// shares (an entry that fails alone, values worth masking).
import { InputError } from '../core/input-error.js';
import { isPlainObject } from '../protocol/payload.js';
import type { KnownSecret } from '../safety/redact.js';
import type { ServerOptions } from './server-options.js';

export interface ConfiguredServer {
  name: string;
  options: ServerOptions;
  /** Values the file marks secret (server.json isSecret), masked beside the usual ones. */
  secrets: KnownSecret[];
  /**
   * Why this entry cannot be run as written (an unresolved ${input:…}, no command): its row in a fleet, never the end
   * of it.
   */
  problem?: string;
  /**
   * The problem is that nothing it offers can be started here (no runtime on PATH): exit 3, as a server that cannot be
   * started, not 2.
   */
  unreachable?: boolean;
  /**
   * Why the entry is not checked by intent (a registry entry marked deleted): its row says so, and it costs no exit
   * code.
   */
  skipped?: string;
  /** What was chosen among what the entry offers, and why not the others (a registry list). */
  note?: string;
}

/** `$VAR`, `${VAR}`, `${env:VAR}`, `${input:ID}` resolved in a value of entry `entry`; what it read joins `secrets`. */
export type Resolve = (value: string, entry: string, secrets?: KnownSecret[]) => string;

/** One entry, or what is wrong with it: a bad entry is that server's problem only. */
export function entry(name: string, build: () => ConfiguredServer): ConfiguredServer {
  try {
    return build();
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return { name, options: {}, secrets: [], problem: err.message };
  }
}

export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function record(value: unknown): Record<string, string> {
  return isPlainObject(value)
    ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : {};
}

/** Short values (a port, "1") are not worth masking: they would blank out ordinary text. */
export function worth(secret: KnownSecret): boolean {
  return secret.value.length >= 6;
}
