// Text, in-process: untrusted text made inert for the terminal, numbers as en-US writes them, words as
// ICU splits them, and token counts the same on the side thread, from the cache and on the calling
// thread.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatNumber, sanitizeLine } from '../src/util/text.js';
import { words } from '../src/util/words.js';
import { countTokensOf } from '../src/util/tokens.js';
import { ROOT } from './helpers.js';

t.test('untrusted text is made inert for the terminal', async (t) => {
  t.equal(sanitizeLine('a\u001b[31mred\u001b[0m'), 'a\\x1b[31mred\\x1b[0m');
  t.equal(
    sanitizeLine('line1\n::error::forged'),
    'line1 : :error: :forged',
    'a workflow command is broken, not only kept off the line start',
  );
  t.equal(sanitizeLine('abc\u202eevil'), 'abc\\u202eevil');
});

t.test('numbers are written as en-US writes them, without ICU', async (t) => {
  for (const n of [0, 7, 999, 1000, 12345, 1234567, -1234, -999, 123456789012, 1e20, 1e21, 2.5, 0.1]) {
    t.equal(formatNumber(n), Number.isInteger(n) ? n.toLocaleString('en-US') : String(n), String(n));
  }
});

t.test("ASCII words are ICU's word-like segments, without the segmenter", async (t) => {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
  const icu = (text: string) => [...segmenter.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);
  // Random strings over the characters the word rules treat apart, from a fixed seed.
  const alphabet = 'aZ09_ .,;:\'"-/()!?\n\t@#$%&*+=<>[]{}|\\`~^';
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const texts = ['get_note returns a note by id.', "Don't use e.g. U.S.A or 1,000.50; a:b __ _ 3'4 x.y.z", ''];
  for (let i = 0; i < 20_000; i++)
    texts.push(
      Array.from({ length: 1 + Math.floor(next() * 24) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(
        '',
      ),
    );
  const differ = texts.filter((text) => JSON.stringify(words(text)) !== JSON.stringify(icu(text)));
  t.same(differ.slice(0, 5), [], `${differ.length} of ${texts.length} texts split otherwise`);
  t.same(words('one two three four', 2), ['one', 'two'], 'at most as many as asked');
  t.same(words('日本語のテキスト'), icu('日本語のテキスト'), 'other text goes to the segmenter');
});

t.test('the side thread counts tokens as the calling thread does, and keeps no process alive', async (t) => {
  const texts = [
    'Lists notes.',
    JSON.stringify({ name: 'get_note', description: 'Gets one note by its id — ノートを読む' }),
    '',
    'word '.repeat(2000),
    '😀 emoji, 中文, Ελληνικά',
  ];
  const here = await countTokensOf(texts);
  const tokens = pathToFileURL(join(ROOT, 'dist', 'src', 'util', 'tokens.js')).href;
  // In a process of its own (the thread is the module's): it must end by itself once it has counted.
  const side = pathToFileURL(join(ROOT, 'dist', 'src', 'util', 'side-thread.js')).href;
  const script = `import { countTokensOf, preloadTokenizer } from ${JSON.stringify(tokens)};
import { inSideThread } from ${JSON.stringify(side)};
await preloadTokenizer(true);
console.log(JSON.stringify({ inThread: inSideThread(), counts: await countTokensOf(${JSON.stringify(texts)}) }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  t.equal(run.status, 0, `it exits by itself, having counted (${run.signal ?? run.stderr.slice(-300)})`);
  const out = JSON.parse(run.stdout) as { inThread: boolean; counts: number[] };
  t.ok(out.inThread, 'the counts came from the thread');
  t.same(out.counts, here, 'the same counts as on the calling thread');
  const idle = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { preloadTokenizer } from ${JSON.stringify(tokens)}; await preloadTokenizer(true);`,
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  t.equal(
    idle.status,
    0,
    `a process that started the thread and counted nothing exits by itself too (${idle.signal ?? idle.stderr.slice(-300)})`,
  );
});

t.test('token counts kept from earlier calls (the cache) are the counts the tokenizer makes', async (t) => {
  const { countTokensHere } = await import('../src/util/tokens.js');
  const texts = ['Counted once: a text no other test counts (cache).', 'Twice the same.', 'Twice the same.', ''];
  const first = await countTokensOf(texts);
  t.same(first, await countTokensHere(texts), 'as the tokenizer counts them, duplicates included');
  t.equal(first[1], first[2]);
  // Asked again, mixed with a new text: the kept counts come back with the new one in its place.
  const again = await countTokensOf([texts[0], 'A new one.', texts[1]]);
  t.same(again, [first[0], (await countTokensHere(['A new one.']))[0], first[1]]);
});
