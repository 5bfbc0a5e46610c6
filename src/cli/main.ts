// The CLI's entry: parse, run the command, turn errors into exit codes. Heavy modules (schema
// compilers, reporters, the engine) are imported where they are needed, so that --version,
// --help and a small lint start fast.
import { CommanderError } from 'commander';
import { fileURLToPath } from 'node:url';
import { EXIT } from '../core/exit-codes.js';
import { InputError } from '../core/input-error.js';
import { TargetUnavailableError } from '../transport/types.js';
import { asText } from '../util/text.js';
import { TOOL_NAME } from '../util/version.js';
import { userCacheFolder } from '../util/cache-folder.js';
import { useTokenCountCache } from '../util/token-cache.js';
import { TOKEN_ENCODING } from '../util/tokens.js';
import { CliOutput } from './output.js';
import { buildProgram } from './program.js';

async function main(argv: string[]): Promise<void> {
  // A reader that stops early (`| head`) closes the pipe: stop quietly, as other CLIs do.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) =>
      process.exit(err.code === 'EPIPE' ? (process.exitCode ?? 0) : 74),
    );
  }
  const out = new CliOutput();
  // The bundle's runs keep token counts beside its code cache (src/cli/boot.ts, src/util/token-cache.ts).
  const cacheFolder = userCacheFolder();
  if (cacheFolder && /[\\/]main\.cjs$/.test(fileURLToPath(import.meta.url)))
    useTokenCountCache(cacheFolder, TOKEN_ENCODING);
  try {
    // A test's way to see what an internal error prints (test/cli-boot.test.ts): there is no other safe one.
    if (process.env.MCP_PD_CHECK_TEST_INTERNAL_ERROR === '1')
      throw new Error('an internal error forced by MCP_PD_CHECK_TEST_INTERNAL_ERROR');
    await buildProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    } else if (err instanceof InputError) {
      out.say(`${TOOL_NAME}: ${err.message}\n`);
      process.exitCode = EXIT.usage;
    } else if (err instanceof TargetUnavailableError) {
      // A server that cannot be started or reached: one line, as the checker says it.
      out.say(`${TOOL_NAME}: ${err.message}\n`);
      process.exitCode = EXIT.unreachable;
    } else {
      // One line, then the stack in src/ files (the bundle's source map): what a report needs.
      const { mappedStack, thrownAt } = await import('../util/stack.js');
      const [first = '', ...frames] = (err instanceof Error && err.stack ? mappedStack(err.stack) : asText(err)).split(
        '\n',
      );
      const at = thrownAt(err);
      out.say(
        `${TOOL_NAME}: internal error: ${first}${at ? ` (${at})` : ''}\n${frames.join('\n')}\nPlease report this at the project's issue tracker, with the lines above.\n`,
      );
      process.exitCode = 70;
    }
  }
}

// No top-level await: the bundle of this module is CommonJS (src/cli/boot.ts starts it from V8's code cache).
void main(process.argv)
  // Do not let a server's leftover pipes or timers keep the checker alive, but exit only once
  // everything written has reached the pipe (a report can be larger than the pipe buffer).
  .then(() =>
    Promise.all([process.stdout, process.stderr].map((stream) => new Promise((done) => stream.write('', done)))),
  )
  .then(() => process.exit());
