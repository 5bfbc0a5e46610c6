// When each exchange was sent and answered, kept beside the exchanges (never in a report): the
// model's timeline orders requests by them.
import type { Exchange } from './types.js';

/** When each exchange was sent and answered (performance.now()), for the model's timeline. */
const TIMES = new WeakMap<Exchange, { sent: number; done?: number }>();

/** When an exchange was sent, and when its answer (or its end) came; undefined for one not sent by a session. */
export function timesOf(ex: Exchange): { sent: number; done?: number } | undefined {
  return TIMES.get(ex);
}

/** The answer (or the end) of an exchange came now. */
export function finished(ex: Exchange): void {
  const times = TIMES.get(ex);
  if (times && times.done === undefined) times.done = performance.now();
}

/** Which of its session's connections each exchange went on (over HTTP). */
const CONNECTIONS = new WeakMap<Exchange, number>();

/** Which of its session's connections an exchange went on (numbered as they were first used); undefined over stdio. */
export function connectionOf(ex: Exchange): number | undefined {
  return CONNECTIONS.get(ex);
}

/** The exchange went on the session's connection number `connection`, the run's socket number `socket`. */
export function wentOn(ex: Exchange, connection: number, socket?: number): void {
  CONNECTIONS.set(ex, connection);
  if (socket !== undefined) SOCKETS.set(ex, socket);
}

/**
 * Which socket of the whole run each exchange went on (over HTTP): two sessions' exchanges on one socket shared a
 * connection.
 */
const SOCKETS = new WeakMap<Exchange, number>();

/** The run's number of the socket an exchange went on; undefined over stdio. */
export function socketOf(ex: Exchange): number | undefined {
  return SOCKETS.get(ex);
}

/** Exchanges sent under an ended session's id, with the HTTP status they got. */
const AFTER_END = new WeakMap<Exchange, { status?: number }>();

/** For an exchange sent after its session ended (over HTTP): the HTTP status it got. */
export function afterEndOf(ex: Exchange): { status?: number } | undefined {
  return AFTER_END.get(ex);
}

/** An exchange sent now (its answer to come). */
export function sent(ex: Exchange, at = performance.now()): void {
  TIMES.set(ex, { sent: at });
}

/** An exchange sent at `at` under an ended session's id, answered now with `status`. */
export function sentAfterEnd(ex: Exchange, at: number, status: number | undefined): void {
  TIMES.set(ex, { sent: at, done: performance.now() });
  AFTER_END.set(ex, { status });
}
