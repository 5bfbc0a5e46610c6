// Reads what a server shows its clients' models, in every protocol era it speaks: initialize (or
// server/discover), every page of tools/list and resources/list, and the full descriptions from
// its tool_descriptions resource. Reads only: no tool is ever called.
import { discover } from '../run/discovery.js';
import { noEraError, probeEras, type ProtocolChoice } from '../run/eras.js';
import { readFullDescriptions } from '../protocol/fetch.js';
import type { Era } from '../transport/era.js';
import type { Target } from '../transport/target.js';
import { TargetUnavailableError } from '../transport/types.js';
import type { EraListing } from './lock-file.js';

export interface ReadSurface {
  server?: string;
  listings: EraListing[];
  /** Full descriptions the resource did not give (locked without one), and why. */
  unread: Array<{ era: Era; tool: string; why: string }>;
}

export async function readSurface(
  inEra: (era: Era) => Target,
  choice: ProtocolChoice,
  describe: string,
): Promise<ReadSurface> {
  const probes = await Promise.all(probeEras(inEra, choice));
  const open = probes.filter((p) => p.session);
  try {
    if (!open.length) throw noEraError(probes);
    const surface: ReadSurface = { listings: [], unread: [] };
    for (const probe of open) {
      const { discovery, session } = await discover(probe.target, undefined, probe.session);
      surface.server ??= discovery.serverInfo?.name;
      const resource = discovery.descriptionsResource?.uri;
      // A name with a comma cannot be asked for in ?tools=a,b; the tool form is the resource itself.
      const form = discovery.descriptionsTool?.name;
      const names = discovery.toolNames.filter((n) => !n.includes(',') && n !== form);
      const read = resource ? await readFullDescriptions(session, resource, names) : { full: new Map(), unread: [] };
      surface.listings.push({
        era: probe.era,
        tools: discovery.tools,
        ...(resource ? { resource } : {}),
        full: read.full,
      });
      surface.unread.push(...read.unread.map((u) => ({ era: probe.era, tool: u.name, why: u.why })));
    }
    return surface;
  } catch (err) {
    if (err instanceof TargetUnavailableError) err.target = describe;
    throw err;
  } finally {
    await Promise.all(
      open.map(async (p) => {
        await p.session!.close().catch(() => {});
        await p.target.dispose();
      }),
    );
  }
}
