// The flags of a live run, as the CLI reads them, and as the library's options: shared by a run of
// one server (commands/check.ts) and of a fleet (commands/fleet.ts).
import type { CheckServerOptions } from '../library/check-server.js';
import { libraryOptions, type Flags, type OutputFlags } from './options.js';

/** The flags of a live run the CLI reads itself (the rest go to the library as they are). */
export interface CheckFlags extends OutputFlags {
  url?: string;
  env?: string[];
  explainPlan: boolean;
  serverConfig?: string;
  server: string[];
  jobs: number;
  shard?: string;
  outDir?: string;
  resume: boolean;
}

/** The flags of a live run, as the library's options. */
export function checkOptionsFrom(words: string[], flags: CheckFlags): CheckServerOptions {
  return libraryOptions(flags as unknown as Flags, 'check', words);
}
