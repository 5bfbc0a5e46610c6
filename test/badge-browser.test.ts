// The README badge (--badge FILE) is a valid SVG document that a browser draws whole: parsed as XML
// (a broken one shows chromium's parser error instead), each text inside its own half of the badge.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REFERENCE, ROOT, runCli, tempDir } from './helpers.js';
import { browserSkip, launchChromium } from './support/chromium.js';

t.test(
  'the badge of a live run and of a lint renders in a headless browser, no text past its half',
  { skip: browserSkip },
  async (t) => {
    const dir = tempDir();
    const badges = { live: join(dir, 'live.svg'), lint: join(dir, 'lint.svg') };
    const live = await runCli(['--explore', '0', '--badge', badges.live, '--', 'node', REFERENCE]);
    t.equal(live.code, 0, live.stderr);
    const lint = await runCli([
      'lint',
      '--badge',
      badges.lint,
      join(ROOT, 'fixtures', 'quality', 'listed-too-long--long-listing'),
    ]);
    t.equal(lint.code, 0, lint.stderr);
    t.match(readFileSync(badges.live, 'utf8'), /<title>progressive disclosure: yes · \d+\/100<\/title>/);
    t.match(readFileSync(badges.lint, 'utf8'), /<title>tool descriptions: \d+\/100<\/title>/);

    const browser = await launchChromium();
    t.teardown(() => browser.close());
    for (const [name, file] of Object.entries(badges)) {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      const drawn = await page.evaluate(() => {
        const root = document.documentElement;
        const halves = [...root.querySelectorAll('g[clip-path] rect')]
          .slice(0, 2)
          .map((r) => r.getBoundingClientRect());
        const texts = [...root.querySelectorAll('text')].map((x) => ({
          text: x.textContent,
          box: x.getBoundingClientRect(),
        }));
        return {
          root: root.localName,
          namespace: root.namespaceURI,
          parserErrors: document.getElementsByTagName('parsererror').length,
          width: root.getBoundingClientRect().width,
          texts: texts.map(({ text, box }, i) => ({
            text,
            width: box.width,
            inside: box.left >= halves[i].left && box.right <= halves[i].right,
          })),
        };
      });
      t.equal(drawn.root, 'svg', `${name}: the document is an SVG`);
      t.equal(drawn.namespace, 'http://www.w3.org/2000/svg', `${name}: in the SVG namespace`);
      t.equal(drawn.parserErrors, 0, `${name}: parsed without errors`);
      t.ok(drawn.width > 100, `${name}: laid out, ${drawn.width} px wide`);
      t.equal(drawn.texts.length, 2, `${name}: a label and a value`);
      for (const text of drawn.texts)
        t.ok(text.width > 10 && text.inside, `${name}: '${text.text}' drawn (${text.width} px) inside its half`);
      await page.close();
    }
  },
);
