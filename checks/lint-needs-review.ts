import { defineLintCheck } from '../src/lint/check.js';
import { REVIEW } from '../src/init/review.js';
import { joinPointer } from '../src/util/json-pointer.js';

/** A hostile or huge file must not make the walk long: past this many values the rest is not read. */
const MAX_VALUES = 100_000;

const messages = {
  'needs-review': {
    message: 'A text still marked for review: "{text}" ({where}).',
    hint: 'Replace it with what is true of the tool, or delete it where it is only a mark (a Tool Card\'s "x-review"); mcp-pd-check init marks every text it could only guess with "REVIEW:".',
  },
} as const;

export default defineLintCheck({
  id: 'lint-needs-review',
  title: 'No text is still marked "REVIEW:" (the marks mcp-pd-check init leaves on what it could only guess)',
  spec: { doc: 'mcp-pd-check', section: 'init', level: 'SHOULD', requirements: [] },
  needs: 'folder',
  messages,
  async run(ctx) {
    for (const file of ctx.parsedOrSkip()) {
      if (file.kind === 'unknown') continue;
      const stack: Array<[unknown, string]> = [[file.source!.value, '']];
      let seen = 0;
      while (stack.length && seen++ < MAX_VALUES) {
        const [value, pointer] = stack.pop()!;
        if (typeof value === 'string') {
          if (value.startsWith(REVIEW))
            ctx.warn(
              'needs-review',
              { text: value.length > 80 ? `${value.slice(0, 79)}…` : value, where: pointer || '/' },
              { location: ctx.at(file, pointer) },
            );
        } else if (Array.isArray(value)) {
          for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], joinPointer(pointer, i)]);
        } else if (value !== null && typeof value === 'object') {
          for (const [k, v] of Object.entries(value).reverse()) stack.push([v, joinPointer(pointer, k)]);
        }
      }
    }
  },
});
