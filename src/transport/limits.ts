/** What one message from a server may cost the checker, whatever the server sends. */
export interface WireLimits {
  /** A message (a stdout line, an HTTP body, an SSE event) larger than this ends the session. */
  maxMessageBytes: number;
}

export const DEFAULT_MAX_MESSAGE_MB = 16;

/**
 * How long a server gets to start and answer initialize (--startup-timeout): enough for a cold
 * `npx -y` or `uvx`, a JVM, or many sessions starting at once on a busy CI runner. It is not a
 * request's limit: once the server says anything, initialize gets the request limit.
 */
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
export const DEFAULT_LIMITS: WireLimits = { maxMessageBytes: DEFAULT_MAX_MESSAGE_MB * 1024 * 1024 };

/**
 * Deeper than this, a message is cut: JSON.parse copes with any depth, but everything after it
 * (schema compilers, JSON.stringify, reporters) recurses and would overflow the stack.
 */
export const MAX_DEPTH = 128;
/** How the wires mark, in a session's garbage, what they cut or dropped (see mcp-wire-valid). */
export const TOO_DEEP = `nested deeper than ${MAX_DEPTH} levels (cut)`;
export const TOO_LARGE = 'a message larger than --max-response (dropped, session ended)';
export const CUT_MARK = `[cut by mcp-pd-check: nested deeper than ${MAX_DEPTH} levels]`;

/** Replaces, in place and without recursion, every object or array below MAX_DEPTH by CUT_MARK. */
export function capDepth(root: unknown): boolean {
  if (typeof root !== 'object' || root === null) return false;
  let cut = false;
  const stack: Array<[Record<string, unknown>, number]> = [[root as Record<string, unknown>, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    for (const key of Object.keys(node)) {
      const child = node[key];
      if (typeof child !== 'object' || child === null) continue;
      if (depth < MAX_DEPTH) {
        stack.push([child as Record<string, unknown>, depth + 1]);
      } else {
        // defineProperty: a key named __proto__ stays a plain data key.
        Object.defineProperty(node, key, { value: CUT_MARK, enumerable: true, writable: true, configurable: true });
        cut = true;
      }
    }
  }
  return cut;
}

/** Parses one message and applies the depth cap; `problem` says what was wrong with it. */
export function parseMessage(text: string): { value?: unknown; problem?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'not JSON' };
  }
  return capDepth(value) ? { value, problem: TOO_DEEP } : { value };
}

/** Bytes as megabytes for messages: "16 MB", "0.5 MB". */
export function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}
