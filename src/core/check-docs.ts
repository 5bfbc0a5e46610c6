import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../util/version.js';

/**
 * The prose of a check lives in docs/checks/<id>.md, shipped in the package; its metadata (title,
 * spec, level) stays in the check definition. Every doc has these sections, in this order.
 */
export const DOC_SECTIONS = ['What it checks', 'Why', 'How to fix', 'A passing example'] as const;
export type DocSection = (typeof DOC_SECTIONS)[number];

export interface CheckDoc {
  /** The whole Markdown text. */
  markdown: string;
  /** The `# heading` (the check id). */
  heading: string;
  /** Section bodies by `## heading`, trimmed, in file order. */
  sections: Map<string, string>;
}

export function checkDocPath(id: string): string {
  return join(PACKAGE_ROOT, 'docs', 'checks', `${id}.md`);
}

/**
 * Where a check's doc can be read: the file in this installation (the docs ship in the package),
 * so the link resolves wherever the checker runs, published or not.
 */
export function checkDocUrl(id: string): string {
  return pathToFileURL(checkDocPath(id)).href;
}

/** The doc of a check, or undefined when it has none (the meta-test makes sure every check has one). */
export function readCheckDoc(id: string): CheckDoc | undefined {
  let markdown: string;
  try {
    markdown = readFileSync(checkDocPath(id), 'utf8');
  } catch {
    return undefined;
  }
  return parseCheckDoc(markdown);
}

/** Splits a doc on its headings; `##` lines inside fenced code blocks are not headings. */
export function parseCheckDoc(markdown: string): CheckDoc {
  const sections = new Map<string, string>();
  let heading = '';
  let current: string | undefined;
  let body: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    if (current !== undefined) sections.set(current, body.join('\n').trim());
  };
  for (const line of markdown.split(/\r?\n/)) {
    const opener = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (opener && (!fence || opener.startsWith(fence))) fence = fence ? undefined : opener;
    if (!fence && !opener && /^# /.test(line) && !heading) {
      heading = line.slice(2).trim();
      continue;
    }
    if (!fence && !opener && /^## /.test(line)) {
      flush();
      current = line.slice(3).trim();
      body = [];
      continue;
    }
    body.push(line);
  }
  flush();
  return { markdown, heading, sections };
}
