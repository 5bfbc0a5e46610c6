import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { megabytes } from './limits.js';

/**
 * Reads a text/event-stream body with eventsource-parser (every line-end form, CR-only included,
 * comments, multi-line data), holding each event to `maxEventBytes`: a server that never ends an
 * event cannot make the checker buffer without bound. `onEvent` returns true to stop reading
 * (leaving the loop cancels the stream).
 */
export async function readEventStream(
  body: AsyncIterable<Uint8Array>,
  maxEventBytes: number,
  onEvent: (event: EventSourceMessage) => boolean | void,
): Promise<void> {
  let stop = false;
  let pending = 0;
  let failure: Error | undefined;
  const parser = createParser({
    maxBufferSize: maxEventBytes,
    onEvent(event) {
      pending = 0;
      if (!stop && onEvent(event) === true) stop = true;
    },
    onError(error) {
      if (error.type === 'max-buffer-size-exceeded') failure = new EventTooLarge(maxEventBytes);
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    pending += chunk.length;
    if (pending > maxEventBytes) throw new EventTooLarge(maxEventBytes);
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (failure) throw failure;
    if (stop) return;
  }
  parser.feed(decoder.decode());
}

export class EventTooLarge extends Error {
  override name = 'EventTooLarge';
  constructor(max: number) {
    super(`an event of the event stream exceeded ${megabytes(max)} (--max-response)`);
  }
}
