// A sweep split over a CI matrix (`--shard k/n`): which servers a shard checks, and the fleet's
// identity (size, digest, names) that every shard records so that `merge` can join them.
//
// Design (issue 57):
// - A server's shard depends on its own name and n only: shard = (the first 8 bytes of
//   sha256(name), as an unsigned integer) mod n, + 1. Adding or removing a server moves no other
//   server, and every job of a matrix computes the same split without talking to the others. The
//   price: a small fleet can leave a shard empty (6 servers in 3 shards do not always fill all 3),
//   which is harmless — an empty shard writes a report of no servers, and the merge counts it.
// - The fleet's digest is sha256 over its shape and its sorted server names: shards of the same
//   file agree on every machine, and a fleet with a server more or less, or of another file shape,
//   differs. It is not over the commands or URLs: those hold values resolved on each runner
//   (${workspaceFolder}, secrets), which differ between the jobs of one sweep.
import { createHash } from 'node:crypto';
import { InputError } from '../core/input-error.js';

export interface Shard {
  k: number;
  n: number;
}

/** Who the fleet is, as every shard's report records it. `names`: in the file's order. */
export interface FleetIdentity {
  size: number;
  digest: string;
  names: string[];
}

/** The largest n: a matrix wider than this is not a CI matrix. */
export const MAX_SHARDS = 1000;

/** `--shard 2/4` → {k: 2, n: 4}; anything else is a one-line usage error. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const k = Number(m?.[1]);
  const n = Number(m?.[2]);
  if (!m || n < 1 || n > MAX_SHARDS || k < 1 || k > n) {
    throw new InputError(
      `--shard expects k/n, a shard k of n with 1 ≤ k ≤ n ≤ ${MAX_SHARDS} (e.g. --shard 2/4 in a matrix of 4 jobs); got '${text}'`,
    );
  }
  return { k, n };
}

/** The shard (1…n) a server's name falls in: stable under additions to the fleet. */
export function shardOf(name: string, n: number): number {
  const hash = createHash('sha256').update(name, 'utf8').digest();
  return Number(hash.readBigUInt64BE(0) % BigInt(n)) + 1;
}

/** The fleet's identity: its size, digest and names (in the file's order). */
export function fleetIdentity(shape: string, names: readonly string[]): FleetIdentity {
  const sorted = [...names].sort();
  const digest = createHash('sha256')
    .update(JSON.stringify({ shape, names: sorted }))
    .digest('hex');
  return { size: names.length, digest: `sha256:${digest}`, names: [...names] };
}

export function shardText(shard: Shard): string {
  return `${shard.k}/${shard.n}`;
}
