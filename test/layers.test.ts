// Layers import downwards (docs/DESIGN.md, "Layout"): no import loop between the folders of src/,
// checks/, reports/ and reference-server/, and no folder imports one above it. Type-only imports
// count: a type that climbs a layer is the first step of a loop.
import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { ROOT } from './helpers.js';

/** The layers, lowest first: a folder may import its own layer and those below. */
const LAYERS: string[][] = [
  ['src/generated', 'src/util'],
  ['src/safety'],
  ['src/transport'],
  ['src/core'],
  ['src/protocol'],
  ['src/rules'],
  ['src/model'],
  ['src/lint', 'src/init', 'src/serve'],
  ['src/run'],
  ['src/lock'],
  ['src/plugin'],
  ['checks', 'reference-server'],
  ['src/library', 'src/testing'],
  ['reports'],
  ['src/cli', 'src/action'],
  ['src'],
];

/** The folder a file belongs to: src/<folder> (src/protocol/server is src/protocol), or the top-level one. */
function folderOf(file: string): string {
  const parts = relative(ROOT, file).split('/');
  if (parts[0] === 'src') return parts.length > 2 ? `src/${parts[1]}` : 'src';
  return parts[0];
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (entry !== 'bundle' && entry !== 'build') out.push(...sources(path));
    } else if (entry.endsWith('.ts') && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const IMPORT =
  /(?:import|export)\s[^'";]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Folder → folder edges, with the file that makes each. */
function edges(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const top of ['src', 'checks', 'reports', 'reference-server']) {
    for (const file of sources(join(ROOT, top))) {
      if (file.includes(`${join(ROOT, 'src', 'generated')}`)) continue;
      const from = folderOf(file);
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const to = folderOf(normalize(join(dirname(file), m[1] ?? m[2])));
        if (to === from) continue;
        const out = graph.get(from) ?? graph.set(from, new Map()).get(from)!;
        if (!out.has(to)) out.set(to, relative(ROOT, file));
      }
    }
  }
  return graph;
}

const rank = new Map(LAYERS.flatMap((layer, i) => layer.map((folder) => [folder, i] as const)));

t.test('every folder has a layer', async (t) => {
  const graph = edges();
  const folders = new Set([...graph.keys(), ...[...graph.values()].flatMap((m) => [...m.keys()])]);
  for (const folder of folders) t.ok(rank.has(folder), `${folder} is in LAYERS`);
});

/** Imports that climb a layer (every loop between folders has one). */
function climbsOf(graph: Map<string, Map<string, string>>): string[] {
  const climbs: string[] = [];
  for (const [from, out] of graph) {
    for (const [to, file] of out)
      if ((rank.get(to) ?? 99) > (rank.get(from) ?? -1)) climbs.push(`${from} → ${to} (${file})`);
  }
  return climbs;
}

t.test('no folder imports one above it, so the folders form no loop', async (t) => {
  t.same(climbsOf(edges()), [], 'imports that climb a layer');
});

t.test('the transport knows nothing above it; serve and the checks never import the reference server', async (t) => {
  const graph = edges();
  t.same([...(graph.get('src/transport')?.keys() ?? [])].sort(), ['src/generated', 'src/safety', 'src/util']);
  for (const folder of ['src/serve', 'checks', 'src/run', 'src/library'])
    t.notOk(graph.get(folder)?.has('reference-server'), `${folder} does not import reference-server/`);
  t.notOk(graph.get('src/core')?.has('reports'), 'the core imports no reporter');
  t.notOk(graph.get('src/safety')?.has('src/lint'), 'safety imports no lint');
});

t.test('a climb is found (the loop the transport once closed through safety and the lint)', async (t) => {
  const loop = new Map([
    ['src/safety', new Map([['src/lint', 'src/safety/redact.ts']])],
    ['src/lint', new Map([['src/safety', 'src/lint/secrets.ts']])],
  ]);
  t.same(climbsOf(loop), ['src/safety → src/lint (src/safety/redact.ts)']);
});

t.test("no check, phase or exploration calls a tool except through the run's door", async (t) => {
  const callers: string[] = [];
  for (const top of ['checks', join('src', 'run'), join('src', 'model')]) {
    for (const file of sources(join(ROOT, top))) {
      if (file.endsWith(join('src', 'run', 'call-door.ts'))) continue;
      if (/\.callTool\(|['"]tools\/call['"]\s*,/.test(readFileSync(file, 'utf8'))) callers.push(relative(ROOT, file));
    }
  }
  t.same(callers, [], 'files that send tools/call themselves');
});

/** File → files it imports (type-only and dynamic imports too: each is a step of a circle), within the sources. */
function fileGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const top of ['src', 'checks', 'reports', 'reference-server']) {
    for (const file of sources(join(ROOT, top))) {
      if (file.includes(join(ROOT, 'src', 'generated'))) continue;
      const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) =>
        relative(ROOT, normalize(join(dirname(file), m[1] ?? m[2]))).replace(/\.js$/, '.ts'),
      );
      graph.set(relative(ROOT, file), targets);
    }
  }
  return graph;
}

/** The import circles between files: each strongly connected set of more than one file (Tarjan). */
function circlesOf(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) !== order.get(v)) return;
    const set: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      set.push(w);
      if (w === v) break;
    }
    if (set.length > 1) circles.push(set.sort());
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return circles;
}

t.test('no two files import each other, however far round (type-only and dynamic imports count)', async (t) => {
  t.same(circlesOf(fileGraph()), [], 'import circles between files');
  // The finder finds one: the circle issue 55 broke (commands/check.ts ↔ commands/fleet.ts).
  t.same(
    circlesOf(
      new Map([
        ['a.ts', ['b.ts']],
        ['b.ts', ['c.ts']],
        ['c.ts', ['a.ts']],
        ['d.ts', ['a.ts']],
      ]),
    ),
    [['a.ts', 'b.ts', 'c.ts']],
  );
});

t.test(
  'no room over 350 lines in src, checks, reports, reference-server or test (generated files aside), as the formatter writes them: a file that grows is split by job',
  async (t) => {
    // The files are read as they are: npm run format:check (in .ci/run) holds them to Prettier's layout,
    // so a line count here is a count of formatted lines, never of lines squeezed to fit.
    const counted = ['src', 'checks', 'reports', 'reference-server', 'test']
      .flatMap((top) => sources(join(ROOT, top)))
      .filter((file) => !file.includes(join(ROOT, 'src', 'generated')))
      .map((file) => [relative(ROOT, file), readFileSync(file, 'utf8').split('\n').length - 1] as const);
    const big = counted.filter(([, lines]) => lines > 350);
    t.same(big, [], big.map(([file, lines]) => `${file}: ${lines} lines`).join(', ') || 'none');
    // Most rooms are small: a guide, not a limit (the figure is in the test's name when it fails).
    const small = counted.filter(([, lines]) => lines <= 250).length;
    t.ok(small / counted.length >= 0.75, `${small} of ${counted.length} files at 250 lines or fewer`);
  },
);

t.test(
  "a live run's options are read once, by its plan: below it only the checks' context hands them on (each check's own settings)",
  async (t) => {
    // Issue 55: the options went back and forth through the run (read by the run, its door, its
    // phases, its exploration and its judgement); the plan (src/run/run-plan.ts) resolves them once.
    const READERS = [
      'src/library/check-server.ts',
      'src/run/check-eras.ts',
      'src/run/context.ts',
      'src/run/options.ts',
      'src/run/run-plan.ts',
    ];
    const readers = ['src', 'checks', 'reports', 'reference-server']
      .flatMap((top) => sources(join(ROOT, top)))
      .filter(
        (file) => !file.includes(join(ROOT, 'src', 'generated')) && /\bLiveOptions\b/.test(readFileSync(file, 'utf8')),
      )
      .map((file) => relative(ROOT, file))
      .sort();
    t.same(readers, READERS, `files that name LiveOptions: ${readers.join(', ')}`);
  },
);
