import type { PlayMessage } from "../../src/features/plays/message.ts";

/**
 * A stand-in for the PLAYS queue binding that keeps what is sent (or refuses every send): the
 * tests' requests must not reach miniflare's queue, whose consumer would run with the
 * placeholder bindings; a test counts the plays it sent by calling the consumer itself.
 */
export class PlaysQueue {
  readonly sent: PlayMessage[] = [];
  constructor(readonly refuse = false) {}

  async send(body: unknown): Promise<void> {
    await this.sendBatch([{ body }]);
  }

  async sendBatch(messages: Iterable<{ body: unknown }>): Promise<void> {
    if (this.refuse) throw new Error("queue unavailable (test)");
    for (const message of messages) this.sent.push(message.body as PlayMessage);
  }

  /** The plays sent for one track (tests make their own tracks). */
  of(trackId: string): PlayMessage[] {
    return this.sent.filter((play) => play.trackId === trackId);
  }
}

/** The queue every request of the tests sends to unless a test gives its own. */
export const sentPlays = new PlaysQueue();

export const playsBinding = (queue: PlaysQueue) => queue as unknown as Queue<unknown>;
