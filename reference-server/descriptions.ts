import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { ToolDescription } from '../src/generated/tool-description.js';

/**
 * A full tool description as stored in tool_descriptions/<name>.json (guide §7.1); its type is generated from
 * schemas/tool-description.schema.json.
 */
export type FullDescription = ToolDescription;

/** The package's reference-server/tool_descriptions, found from wherever this code was compiled or bundled to. */
function findDescriptionsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'reference-server', 'tool_descriptions');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('reference-server/tool_descriptions not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const DESCRIPTIONS_DIR = findDescriptionsDir();

/**
 * One file per tool, read once and cached (§7.2 MAY). Argument validators are compiled on first use.
 */
export class DescriptionLibrary {
  private readonly byName = new Map<string, FullDescription>();
  private readonly validators = new Map<string, ValidateFunction>();
  private ajv: Ajv2020 | undefined;

  /**
   * From a tool_descriptions folder (default: the reference server's), or from the descriptions themselves (a fixture's
   * own tools).
   */
  constructor(from: string | readonly FullDescription[] = DESCRIPTIONS_DIR) {
    const descriptions =
      typeof from === 'string'
        ? readdirSync(from)
            .filter((f) => f.endsWith('.json'))
            .sort()
            .map((file) => JSON.parse(readFileSync(join(from, file), 'utf8')) as FullDescription)
        : from;
    for (const description of descriptions) this.byName.set(description.name, description);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  get(name: string): FullDescription | undefined {
    return this.byName.get(name);
  }

  /** The catalog the server side of progressive disclosure answers from (src/protocol/server/disclosure.ts). */
  full(name: string): Record<string, unknown> | undefined {
    return this.byName.get(name) as Record<string, unknown> | undefined;
  }

  /** Validates call arguments against the tool's full schema; returns readable problems. */
  validate(name: string, args: unknown): string[] {
    let validate = this.validators.get(name);
    if (!validate) {
      // The schemas are our own files, checked by mcp-pd-check itself; skipping the meta-schema
      // check saves ~80 ms of CPU on the first call of every session.
      this.ajv ??= new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
      validate = this.ajv.compile(this.byName.get(name)!.inputSchema);
      this.validators.set(name, validate);
    }
    if (validate(args)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '(arguments)'} ${e.message ?? 'is invalid'}`);
  }
}
