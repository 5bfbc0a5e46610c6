// Build step: TypeScript types from the shipped JSON Schemas, so no shape is written twice by hand.
import { compileFromFile } from 'json-schema-to-typescript';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'src', 'generated');
mkdirSync(out, { recursive: true });

for (const file of readdirSync(here).filter((f) => f.endsWith('.schema.json'))) {
  const ts = await compileFromFile(join(here, file), {
    cwd: here,
    bannerComment: `/* Generated from schemas/${file} by schemas/generate-types.mjs. Do not edit. */`,
    additionalProperties: false,
    strictIndexSignatures: true,
    unreachableDefinitions: true,
    declareExternallyReferenced: true,
    style: { singleQuote: true },
  });
  writeFileSync(join(out, file.replace('.schema.json', '.ts')), ts);
}
