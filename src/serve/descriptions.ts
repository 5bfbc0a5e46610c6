// What `serve` discloses: the full description of each upstream tool (from the folder `init`
// wrote, or the upstream's own tools/list entry) and the minimal tools/list entry.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../core/input-error.js';
import { REVIEW } from '../init/review.js';
import { minimalListing } from '../rules/minimal-description.js';
import { isPlainObject } from '../protocol/payload.js';
import type { Catalog } from '../protocol/server/disclosure.js';
import { DESCRIPTIONS_TOOL, descriptionsToolEntry, descriptionsToolFull } from '../protocol/server/payloads.js';

export type Tool = Record<string, unknown> & { name: string };

/** A reviewed folder: tool_descriptions/<name>.json, and tools-list.minimal.json if there is one. */
export interface DescriptionFolder {
  full: Map<string, Record<string, unknown>>;
  minimal?: Map<string, Record<string, unknown>>;
  /** Tools whose description or minimal entry still holds init's REVIEW: placeholders (served as written). */
  unreviewed: string[];
}

/** Reads the folder `init` wrote (given as the folder itself or its tool_descriptions/). */
export function readDescriptionFolder(dir: string): DescriptionFolder {
  const root = existsSync(join(dir, 'tool_descriptions')) ? dir : join(dir, '..');
  const descriptions = existsSync(join(dir, 'tool_descriptions')) ? join(dir, 'tool_descriptions') : dir;
  if (!existsSync(descriptions) || !statSync(descriptions).isDirectory()) {
    throw new InputError(
      `--descriptions '${dir}' is not a folder with tool_descriptions/ (write one with: mcp-pd-check init --out ${dir} -- <server command>)`,
    );
  }
  const full = new Map<string, Record<string, unknown>>();
  for (const file of readdirSync(descriptions)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const value = parse(join(descriptions, file));
    if (!isPlainObject(value) || typeof value.name !== 'string')
      throw new InputError(
        `${join(descriptions, file)} is not a tool description (no "name"); fix it or run mcp-pd-check lint ${descriptions}`,
      );
    full.set(value.name, value);
  }
  if (!full.size)
    throw new InputError(
      `--descriptions '${dir}' holds no tool description (*.json); write them with mcp-pd-check init --out ${dir}`,
    );
  const listFile = join(root, 'tools-list.minimal.json');
  let minimal: Map<string, Record<string, unknown>> | undefined;
  if (existsSync(listFile)) {
    const list = parse(listFile);
    const tools = isPlainObject(list) && Array.isArray(list.tools) ? list.tools.filter(isPlainObject) : undefined;
    if (!tools)
      throw new InputError(
        `${listFile} is not a tools/list ({ "tools": [...] }); fix it or delete it to derive the minimal list`,
      );
    minimal = new Map(tools.filter((t) => typeof t.name === 'string').map((t) => [t.name as string, t]));
  }
  const unreviewed = [...full.keys()].filter((name) =>
    JSON.stringify([full.get(name), minimal?.get(name)]).includes(REVIEW),
  );
  return { full, ...(minimal ? { minimal } : {}), unreviewed };
}

function parse(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new InputError(`${file} is not valid JSON (${(err as Error).message})`);
  }
}

/** The upstream's tools, disclosed: a minimal entry each, and the full description behind it. */
export class Disclosed implements Catalog {
  readonly descriptions = new Map<string, Record<string, unknown>>();
  readonly minimal: Array<Record<string, unknown>> = [];
  /**
   * The tool form of the resource that serve offers (src/protocol/tool-form.ts), unless told not to or the upstream has
   * a tool of its name.
   */
  readonly descriptionsTool?: string;

  constructor(upstream: Tool[], folder?: DescriptionFolder, toolForm = true) {
    const listed = new Set(upstream.map((t) => t.name));
    const stray = folder
      ? [...folder.full.keys()].filter((name) => !listed.has(name) && name !== DESCRIPTIONS_TOOL)
      : [];
    if (stray.length) {
      throw new InputError(
        `--descriptions has ${stray.length === 1 ? 'a description' : 'descriptions'} of ${stray.map((n) => `'${n}'`).join(', ')}, which the upstream server does not list; delete ${stray.length === 1 ? 'it' : 'them'} or run init again`,
      );
    }
    for (const tool of upstream) {
      // A tool the folder does not describe yet is described by the upstream's own entry.
      const full = folder?.full.get(tool.name) ?? fullFromUpstream(tool);
      this.descriptions.set(tool.name, full);
      this.minimal.push(folder?.minimal?.get(tool.name) ?? minimalListing(tool));
    }
    // The tool form is serve's to offer (a folder's tools-list.minimal.json may list it too).
    if (toolForm && !listed.has(DESCRIPTIONS_TOOL)) {
      this.descriptionsTool = DESCRIPTIONS_TOOL;
      // First: it is called first, and a client that reads one page of the list sees it.
      this.minimal.unshift(descriptionsToolEntry());
      this.descriptions.set(DESCRIPTIONS_TOOL, descriptionsToolFull(upstream.map((t) => t.name)));
    }
  }

  names(): string[] {
    return [...this.descriptions.keys()];
  }

  /** A tool's full description (the upstream's tools as a Catalog of the server side of progressive disclosure). */
  full(name: string): Record<string, unknown> | undefined {
    return this.descriptions.get(name);
  }
}

/** The upstream's tools/list entry as a full description (§4.4: name, description, inputSchema…). */
function fullFromUpstream(tool: Tool): Record<string, unknown> {
  const { name, title, description, inputSchema, outputSchema, annotations, execution } = tool;
  return {
    name,
    ...(title !== undefined ? { title } : {}),
    description: typeof description === 'string' && description.trim() ? description : `The ${name} tool.`,
    inputSchema: isPlainObject(inputSchema) ? inputSchema : { type: 'object' },
    ...(outputSchema !== undefined ? { outputSchema } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
    ...(execution !== undefined ? { execution } : {}),
  };
}
