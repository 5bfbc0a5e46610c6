import t, { type Test } from 'tap';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Validator } from '@cfworker/json-schema';
import { DEFAULT_CHECKS, REFERENCE, ROOT, runCli, tempDir } from './helpers.js';
import { browserSkip, launchChromium } from './support/chromium.js';

const SARIF_SCHEMA = join(ROOT, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json');

const dir = tempDir();
const files = {
  junit: join(dir, 'report.xml'),
  sarif: join(dir, 'report.sarif'),
  github: join(dir, 'annotations.txt'),
  markdown: join(dir, 'summary.md'),
  html: join(dir, 'report.html'),
};
const run = await runCli([
  '--sessions',
  '3',
  '--explore',
  '0',
  ...Object.entries(files).flatMap(([format, file]) => ['--report', `${format}=${file}`]),
  '--',
  'node',
  REFERENCE,
]);
// Every check a default run runs: ours, then the quality rules.
const LIVE_CHECKS = DEFAULT_CHECKS.live;

t.test('one run against the reference server writes all five CI outputs', async (t) => {
  t.equal(run.code, 0, run.stderr);
  for (const file of Object.values(files)) t.ok(statSync(file).size > 0, `${file} written`);

  const junit = readFileSync(files.junit, 'utf8');
  t.match(junit, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites /);
  // The reference server speaks both protocol eras: every check runs in each.
  t.equal((junit.match(/<testcase /g) ?? []).length, 2 * LIVE_CHECKS.length, 'a testcase per check and era');
  t.match(junit, /name="pd-session-isolation \(2026-07-28\): /, 'a testcase names its era');
  t.notMatch(junit, /<failure /, 'no failures against the reference server');

  const sarif = JSON.parse(readFileSync(files.sarif, 'utf8'));
  const valid = new Validator(JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8')), '4', false).validate(sarif);
  t.ok(
    valid.valid,
    `SARIF valid against 2.1.0: ${valid.errors
      .slice(0, 3)
      .map((e) => e.error)
      .join('; ')}`,
  );
  const rules = sarif.runs[0].tool.driver.rules as Array<{ id: string; helpUri: string; help: { markdown?: string } }>;
  t.same(
    rules.map((r) => r.id),
    LIVE_CHECKS.map((c) => c.id),
    'a rule per check',
  );
  for (const rule of rules) {
    t.match(
      rule.helpUri,
      new RegExp(`^https://unpkg\\.com/mcp-pd-check@[^/]+/docs/checks/${rule.id}\\.md$`),
      `${rule.id}: helpUri points at its doc in the published package`,
    );
    t.match(
      rule.help.markdown,
      new RegExp(`^# ${rule.id}\\n[\\s\\S]*## How to fix`),
      `${rule.id}: the doc is the rule's help`,
    );
  }
  t.same(sarif.runs[0].results, [], 'no results: nothing failed');

  t.match(readFileSync(files.github, 'utf8'), /^::notice title=mcp-pd-check::\d+ passed, 0 failed/m);
  const markdown = readFileSync(files.markdown, 'utf8');
  // A check that passed in both eras is one row; a check of one era (mcp-ping, mcp-modern-results…) one row per era.
  for (const c of LIVE_CHECKS) {
    // (one skipped in both eras alike, as mcp-session-lifecycle over stdio, is one row too)
    const row = c.eras ? `${c.id}(?: \\(${c.eras[0]}\\))?` : c.id;
    t.match(markdown, new RegExp(`^\\| \\S+ \\| \`${row}\` `, 'm'), `markdown table lists ${c.id}`);
  }
  t.match(markdown, /^\| \S+ \| `mcp-ping \(2026-07-28\)` /m, 'a check of one era only is shown with its era');
});

/**
 * GitHub code scanning's rules beyond the schema: every result in a file (it refuses the whole upload otherwise), help
 * links that are not on the machine that ran the check.
 */
function githubIngests(
  t: Test,
  sarif: {
    runs: Array<{
      tool: { driver: { rules: Array<{ helpUri?: string }> } };
      results: Array<{ locations?: Array<{ physicalLocation?: { artifactLocation?: { uri?: string } } }> }>;
    }>;
  },
  where: string,
): void {
  const results = sarif.runs.flatMap((r) => r.results);
  t.ok(results.length > 0, `${where}: results to upload`);
  t.same(
    results.filter((r) => !r.locations?.[0]?.physicalLocation?.artifactLocation?.uri),
    [],
    `${where}: every result is located in a file`,
  );
  const links = sarif.runs.flatMap((r) => r.tool.driver.rules.map((rule) => rule.helpUri ?? ''));
  t.same(
    links.filter((l) => !/^https:\/\//.test(l)),
    [],
    `${where}: every help link is https (no file: link)`,
  );
}

t.test(
  'the HTML report at 600 and 1,400 px: no label clipped, nothing wider than the window (the reference server and server-everything)',
  { skip: browserSkip },
  async (t) => {
    const everything = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    const reports = { reference: files.html, everything: join(dir, 'everything.html') };
    const made = await runCli([
      '--explore',
      '0',
      '--protocol',
      '2025-11-25',
      '--report',
      `html=${reports.everything}`,
      '--',
      'node',
      everything,
      'stdio',
    ]);
    t.ok(existsSync(reports.everything), `server-everything's report was written: ${made.stderr}`);
    const browser = await launchChromium();
    t.teardown(() => browser.close());
    for (const [name, file] of Object.entries(reports)) {
      for (const width of [600, 1400]) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
        const shot = join(dir, `${name}-${width}.png`);
        await page.screenshot({ path: shot, fullPage: true });
        t.ok(readFileSync(shot).length > 10_000, `${name} at ${width} px: a screenshot (${shot})`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        t.ok(overflow <= 0, `${name} at ${width} px: nothing wider than the window (${overflow} px over)`);
        const clipped = await page.$$eval('svg.token-chart', (svgs) =>
          svgs.flatMap((svg) => {
            const box = svg.getBoundingClientRect();
            return [...svg.querySelectorAll('text.tool')]
              .filter((x) => x.getBoundingClientRect().left < box.left - 0.5)
              .map((x) => x.textContent);
          }),
        );
        t.same(clipped, [], `${name} at ${width} px: every tool's label is inside the chart`);
        await page.close();
      }
    }
  },
);

t.test(
  'SARIF that GitHub code scanning accepts: live findings are located in the file that names the server',
  async (t) => {
    const schema = JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8'));
    const sarifOf = async (
      args: string[],
      options: { cwd?: string; env?: Record<string, string | undefined> } = {},
    ) => {
      const file = join(tempDir(), 'out.sarif');
      const got = await runCli(
        ['--explore', '0', '--only', 'pd-description-required', '--report', `sarif=${file}`, ...args],
        options,
      );
      t.equal(got.code, 1, got.stderr);
      const sarif = JSON.parse(readFileSync(file, 'utf8'));
      const valid = new Validator(schema, '4', false).validate(sarif);
      t.ok(
        valid.valid,
        `valid against SARIF 2.1.0: ${valid.errors
          .slice(0, 3)
          .map((e) => e.error)
          .join('; ')}`,
      );
      return sarif;
    };
    const fixture = join('dist', 'fixtures', 'servers', 'pd-description-required--wrong-resource-uri.bundle.js');
    // The server's entry point, from the repository's root.
    const entry = await sarifOf(['--', 'node', fixture], { cwd: ROOT });
    githubIngests(t, entry, 'a stdio server');
    t.equal(
      entry.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri,
      fixture,
      'located at its entry point',
    );
    t.match(
      entry.runs[0].results[0].locations[0].logicalLocations[0],
      { kind: 'function' },
      'its tool as a logical location',
    );
    // No file in the command: the workflow that runs the check.
    const elsewhere = tempDir();
    const workflow = await sarifOf(['--', 'node', join(ROOT, fixture)], {
      cwd: elsewhere,
      env: { GITHUB_WORKFLOW_REF: 'acme/notes/.github/workflows/mcp.yml@refs/heads/main' },
    });
    githubIngests(t, workflow, 'a server outside the repository');
    t.equal(
      workflow.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri,
      '.github/workflows/mcp.yml',
      'located at the workflow',
    );
    // A config that names the server wins.
    writeFileSync(
      join(elsewhere, 'mcp-pd-check.config.json'),
      JSON.stringify({ command: ['node', join(ROOT, fixture)] }),
    );
    const config = await sarifOf([], { cwd: elsewhere, env: { GITHUB_WORKFLOW_REF: undefined } });
    t.equal(
      config.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri,
      'mcp-pd-check.config.json',
      'located at its config',
    );
    // A lint finding keeps its own file and line.
    const lintFile = join(tempDir(), 'lint.sarif');
    await runCli(['lint', '--report', `sarif=${lintFile}`, join(ROOT, 'fixtures', 'folders', 'schema-errors')]);
    githubIngests(t, JSON.parse(readFileSync(lintFile, 'utf8')), 'a lint');
  },
);

t.test('the HTML report renders its token chart in a headless browser', { skip: browserSkip }, async (t) => {
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(files.html).href, { waitUntil: 'load' });

  const shot = join(dir, 'report.png');
  await page.screenshot({ path: shot, fullPage: true });
  const png = readFileSync(shot);
  t.equal(png.subarray(1, 4).toString('latin1'), 'PNG', `a screenshot was taken: ${shot}`);
  t.ok(png.length > 20_000, `the page has content (${png.length} bytes of PNG)`);

  const box = await page.locator('#token-chart').boundingBox();
  t.ok(box && box.width > 600 && box.height > 100, `the chart is laid out and visible: ${JSON.stringify(box)}`);
  // Per tool, the rendered bars: widths in proportion to the token counts, full wider than tools/list.
  const bars = await page.$$eval('#token-chart rect', (rects) =>
    rects
      .map((r) => ({
        title: r.querySelector('title')?.textContent ?? '',
        width: r.getBoundingClientRect().width,
      }))
      .filter((b) => b.title),
  );
  // Each described tool, and the tool form of the resource (get_tool_descriptions), which has a description too.
  const tools = readdirSync(join(ROOT, 'reference-server', 'tool_descriptions')).length + 1;
  t.equal(bars.length, 2 * tools, `two bars for each of the ${tools} tools`);
  for (let i = 0; i < bars.length; i += 2) {
    const [full, minimal] = [bars[i], bars[i + 1]];
    t.match(full.title, /: full description \d+ tokens$/);
    const tokens = (title: string) => Number(/ (\d+) tokens$/.exec(title)?.[1]);
    const drawn = full.width / minimal.width;
    const counted = tokens(full.title) / tokens(minimal.title);
    t.ok(
      full.width > minimal.width && Math.abs(drawn / counted - 1) < 0.03,
      `${full.title} vs ${minimal.title}: drawn ${Math.round(full.width)} px vs ${Math.round(minimal.width)} px`,
    );
  }
  // The counts right of the bars never run into the "found first" column.
  const right = await page.$$eval('#token-chart text.n', (texts) =>
    Math.max(...texts.map((x) => x.getBoundingClientRect().right)),
  );
  const found = await page.$$eval('#token-chart text.found', (texts) =>
    Math.min(...texts.map((x) => x.getBoundingClientRect().left)),
  );
  t.ok(
    Number.isFinite(found) && right < found,
    `the counts end at ${Math.round(right)} px, before "found first" at ${Math.round(found)} px`,
  );
  t.match(
    await page.locator('#verdict').textContent(),
    /Progressive disclosure: yes\. For clients of 2025-11-25 and 2026-07-28 alike — Yes: all nine .*\(\d+ % saved\)/,
  );
  t.equal(
    await page.locator('section.check').count(),
    2 * LIVE_CHECKS.length,
    'every check is on the page, in each era',
  );
  t.same(
    requests.filter((u) => !u.startsWith('file:')),
    [],
    'the page loaded nothing from the network',
  );

  t.match(
    await page.locator('nav.toc').textContent(),
    /^Passed \(\d+\)Skipped|Skipped \(\d+\)Passed \(\d+\)$/,
    'a table of contents by status',
  );
  t.equal(await page.locator('details.group[open]').count(), 0, 'nothing failed: passed and skipped are folded');
  t.notMatch(
    await page.locator('body').textContent(),
    /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/,
    'no raw ISO timestamp shown',
  );
  // The browser's XML parser agrees that the JUnit file is well-formed.
  const xml = readFileSync(files.junit, 'utf8');
  const parseError = await page.evaluate(
    (text) => new DOMParser().parseFromString(text, 'application/xml').querySelector('parsererror')?.textContent ?? '',
    xml,
  );
  t.equal(parseError, '', 'JUnit is well-formed XML');
});
