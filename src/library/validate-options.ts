// The library's options checked against the option table, as the CLI's flags and the settings file
// are: the same types, ranges and choices, named as the caller spells them. Options that
// contradict each other are refused here, once, for every way in.
import { InputError } from '../core/input-error.js';
import { OPTIONS, type CommandName, type OptionSpec } from './option-table.js';
import type { Spelling } from './server-options.js';

/** Pairs of options that cannot both be on, and why. */
const CONFLICTS: ReadonlyArray<{ a: string; b: string; why: string }> = [
  {
    a: 'safeCalls',
    b: 'allowDestructive',
    why: 'one calls only read-only tools, the other calls destructive ones too',
  },
];

function problem(spec: OptionSpec, value: unknown): string | undefined {
  const scale = spec.scale ?? 1;
  switch (spec.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'true or false';
    case 'integer': {
      const [min, max] = [(spec.min ?? 0) * scale, (spec.max ?? Number.MAX_SAFE_INTEGER) * scale];
      if (spec.words?.includes(value as string)) return undefined;
      return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
        ? undefined
        : `a whole number from ${min} to ${max}${spec.words?.length ? ` or ${spec.words.map((w) => JSON.stringify(w)).join(', ')}` : ''}`;
    }
    case 'choice':
      return spec.choices!.includes(value as string) ? undefined : `one of ${spec.choices!.join(', ')}`;
    case 'choices':
      return Array.isArray(value) && value.every((v) => spec.choices!.includes(v as string))
        ? undefined
        : `a list of ${spec.choices!.join(', ')}`;
    case 'text':
      if (spec.library === 'plugins') {
        // (module paths or package names; in the library, plugin objects too)
        return Array.isArray(value) &&
          value.every((v) => typeof v === 'string' || (typeof v === 'object' && v !== null))
          ? undefined
          : 'a list of module paths, package names or plugins';
      }
      if (spec.library === 'rules') {
        // (a level each, or [level, options] for a check that takes options)
        return typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.values(value).every(
            (v) =>
              typeof v === 'string' ||
              (Array.isArray(v) && typeof v[0] === 'string' && (v.length === 1 || (v.length === 2 && isRecord(v[1])))),
          )
          ? undefined
          : 'an object of levels ("off", "warn", "error") or [level, { options }]';
      }
      if (spec.library === 'env' || spec.library === 'headers') {
        // (a record of strings in the library; KEY=VALUE lines on the command line)
        return typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.values(value).every((v) => typeof v === 'string')
          ? undefined
          : 'an object of strings';
      }
      if (spec.repeat)
        return Array.isArray(value) && value.every((v) => typeof v === 'string') ? undefined : 'a list of strings';
      return typeof value === 'string' ? undefined : 'a string';
  }
}

function isRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Throws InputError for the first option of `command` that is not what the table says, or that contradicts another. */
export function validateOptions(options: object, command: CommandName, spell: Spelling): void {
  const given = options as Record<string, unknown>;
  for (const spec of OPTIONS) {
    if (spec.library === undefined || !spec.commands.includes(command)) continue;
    const value = given[spec.library];
    if (value === undefined) continue;
    const expected = problem(spec, value);
    if (expected !== undefined)
      throw new InputError(`${spell.option(spec.library)} expects ${expected}, got ${shown(value)}`);
  }
  for (const { a, b, why } of CONFLICTS) {
    if (given[a] === true && given[b] === true)
      throw new InputError(`${spell.option(a)} and ${spell.option(b)} cannot go together: ${why}`);
  }
}
