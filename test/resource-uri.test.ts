// Every live check together, in-process, against a reference server whose tool_descriptions resource
// is not where a client first looks: at a server-specific URI scheme (no //), or working but not listed
// (found from the refusals). The verdict says which URI was used and where it came from.
import { MIRRORS_KEY } from '../src/protocol/tool-form.js';
import t from 'tap';
import { LIVE_CHECKS } from '../checks/index.js';
import { referenceBehaviour } from '../reference-server/server.js';
import { LEGACY_ERA } from '../src/transport/era.js';
import { cleanStatusOverStdio } from './helpers.js';
import { runInProcess } from './support/check-tester.js';
import { ref } from './support/in-process-cases.js';

t.test('a correct server with a server-specific URI scheme (no //) passes every check', async (t) => {
  const custom = 'orders+pd:/catalog/v2/tool_descriptions';
  const toReference = (uri: string) => uri.replace(custom, 'resource:///tool_descriptions');
  const server = ref({
    listResources: (state) =>
      referenceBehaviour.listResources(state).map((r) => ({
        ...r,
        uri: custom,
        description: (r.description ?? '').replaceAll('resource:///tool_descriptions', custom),
      })),
    // The tool form says which resource it mirrors: this one.
    descriptionsTool() {
      const entry = referenceBehaviour.descriptionsTool.call(this)!;
      return { ...entry, _meta: { [MIRRORS_KEY]: custom } };
    },
    readResource(uri, state) {
      const result = referenceBehaviour.readResource.call(this, toReference(uri), state);
      return {
        contents: result.contents.map((c) => ({
          ...c,
          uri,
          text: (c as { text: string }).text.replaceAll('resource:///tool_descriptions', custom),
        })),
      };
    },
    refuse: (tool) => {
      const result = referenceBehaviour.refuse(tool);
      return {
        ...result,
        content: [
          {
            type: 'text',
            text: (result.content[0] as { text: string }).text.replaceAll('resource:///tool_descriptions', custom),
          },
        ],
      };
    },
  });
  const report = await runInProcess(LIVE_CHECKS, server);
  for (const r of report.results)
    t.equal(
      r.status,
      cleanStatusOverStdio(r.id, r.era ?? LEGACY_ERA),
      `${r.id}: ${JSON.stringify(r.findings.filter((f) => f.level !== 'info').map((f) => f.message))}`,
    );
  t.equal(report.verdict?.implements, 'yes');
});

t.test('a resource that works but is not listed: found from the refusals, the rest tested against it', async (t) => {
  const report = await runInProcess(LIVE_CHECKS, ref({ listResources: () => [] }));
  t.same(
    report.verdict?.resource,
    { uri: 'resource:///tool_descriptions', source: 'refusal' },
    'the verdict says which URI was used and where it came from',
  );
  t.equal(report.verdict?.implements, 'partly');
  t.match(
    report.verdict?.summary,
    /works at resource:\/\/\/tool_descriptions \(named by a refusal's resource_uri\), but resources\/list does not list it/,
  );
  const failing = report.results.filter((r) => r.status === 'fail').map((r) => r.id);
  t.same(failing, ['pd-resource-listed'], 'only the listing fails');
  // Without refusals to go by (criterion 7 not run), the spec's default URI is tried.
  const alone = await runInProcess(
    LIVE_CHECKS.filter((c) => c.id === 'pd-tools-parameter'),
    ref({ listResources: () => [] }),
  );
  t.equal(alone.results[0].status, 'pass');
  t.same(alone.verdict?.resource, { uri: 'resource:///tool_descriptions', source: 'default' });
});
