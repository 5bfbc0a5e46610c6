// A folder as text: every file under it with its content, to see that a run changed nothing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under a folder with its content, in the order of their paths. */
export function snapshot(dir: string): string {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .sort()
    .map((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? `${f}/` : `${f}:${readFileSync(p, 'utf8')}`;
    })
    .join('\n');
}
