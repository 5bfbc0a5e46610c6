// ESLint's flat config: typescript-eslint's type-checked recommended rules over the TypeScript tree,
// with the rules that catch what a protocol checker most often gets wrong (a promise left floating,
// a promise where a boolean was meant, a switch that forgets a case). Every rule switched off or
// tuned says why, here; an inline disable says why on its line.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // Built output, generated validators, the Action's committed bundles, and lint fixtures whose
    // exact bytes are what the tests read.
    ignores: ['dist/', 'node_modules/', 'src/generated/', 'src/action/bundle/', 'fixtures/folders/'],
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A `default:` branch is a deliberate "everything else"; a switch without one must name every case.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // A check's run(), a wire's send() and close() are async by contract (the caller awaits a
      // promise), whether or not this one waits for anything.
      '@typescript-eslint/require-await': 'off',
      // A name that starts with _ is left unused on purpose: a key dropped from a copy by destructuring.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // The sanitizers match control characters on purpose (terminal escapes, NULs in a server's output).
      'no-control-regex': 'off',
      // An aborted request rejects with its signal's own reason, as fetch does (an Error in practice, typed any).
      // A closure made before a variable's one assignment reads it (an upstream that ends before the hub exists).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read reports and messages with JSON.parse and assert on their shape: a shape that is not
      // the one expected fails the assertion, which is the test's job, not the type checker's.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // tap's t.test() returns a promise that tap itself awaits: sub-tests are declared, not awaited.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', name: 'test', package: '@tapjs/test' },
            { from: 'package', name: 'test', package: '@tapjs/core' },
          ],
        },
      ],
    },
  },
  {
    // The build scripts: plain Node modules, outside the TypeScript project.
    files: ['**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', performance: 'readonly' },
    },
  },
);
