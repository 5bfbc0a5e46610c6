// initialize, shared: the upstream is initialized once, by the first client; every later client
// gets the same answer, amended with what progressive disclosure adds (the resources capability,
// the workflow in the instructions).
import { DESCRIPTIONS_TOOL, workflowInstructions } from '../protocol/server/payloads.js';
import type { Client } from './routes.js';
import type { UpstreamLink } from './upstream-link.js';
import { errorReply, type Message } from './validate.js';

export class SharedInitialize {
  private initResult?: Record<string, unknown>;
  private initializing?: Promise<Message>;
  /** Whether the upstream declared resources of its own (else resources/list is answered by serve), once known. */
  upstreamResources?: boolean;

  constructor(
    private readonly link: UpstreamLink,
    private readonly toolForm: boolean,
    private readonly onError: (err: Error) => void,
  ) {}

  /**
   * The first client's initialize goes upstream; later clients get the same answer. One that got
   * none (a timeout, the upstream or the client gone) or an error is no answer to keep: the clients
   * waiting for it get that error, and the next initialize goes upstream again.
   */
  async initialize(client: Client, message: Message): Promise<void> {
    if (!this.initializing) {
      const initializing = new Promise<Message>((resolve) => {
        void this.link
          .forward(
            client,
            message,
            (reply) => {
              resolve(reply);
              return this.amendInitialize(reply);
            },
            resolve,
          )
          .catch((err: Error) => {
            resolve(errorReply(message.id, -32603, err.message));
            this.onError(err);
          });
      });
      this.initializing = initializing;
      const reply = await initializing;
      if (reply.result === undefined && this.initializing === initializing) this.initializing = undefined;
      return;
    }
    const reply = await this.initializing;
    await client.send(
      reply.result === undefined ? { ...reply, id: message.id } : this.amendInitialize({ ...reply, id: message.id }),
    );
  }

  /** Declares the resources capability (the tool_descriptions resource needs it) if the upstream lacks it. */
  private amendInitialize(reply: Message): Message {
    const result = reply.result as Record<string, unknown> | undefined;
    if (!result) return reply;
    const capabilities = { ...((result.capabilities ?? {}) as Record<string, unknown>) };
    this.upstreamResources ??= capabilities.resources !== undefined;
    if (capabilities.resources === undefined) capabilities.resources = {};
    // The workflow, where clients put it before the model (after the upstream's own words).
    const instructions = [
      typeof result.instructions === 'string' ? result.instructions : '',
      workflowInstructions(this.toolForm ? DESCRIPTIONS_TOOL : undefined),
    ]
      .filter(Boolean)
      .join('\n\n');
    this.initResult = { ...result, capabilities, instructions };
    return { ...reply, result: this.initResult };
  }
}
