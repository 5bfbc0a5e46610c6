// An esbuild plugin for the bundles: lazy `createRequire(import.meta.url)(…)` loads become plain
// require() calls, which esbuild bundles (evaluated on first use, as before); a template literal
// (the validators' `../generated/validators/${name}.cjs`) brings in every file it can name.
import { readFile } from 'node:fs/promises';

export const inlineRequires = {
  name: 'inline-requires',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]src[\\/].*\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('createRequire')) return undefined;
      return {
        contents: text
          .replace(/^(?:export )?const require = createRequire\(import\.meta\.url\);$/m, '')
          .replace(/createRequire\(import\.meta\.url\)\(/g, 'require('),
        loader: 'js',
      };
    });
  },
};
