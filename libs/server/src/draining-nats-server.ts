import { ServerNats } from '@nestjs/microservices';

interface Subscription {
  drain(): Promise<void>;
}
interface NatsClient {
  flush(): Promise<void>;
}

/**
 * The services' NATS request/reply transport: Nest's own, stopped so that no request already routed to this
 * process is lost. Nest's `close()` closes the connection at once (or, with `gracefulShutdown`, unsubscribes and then
 * always waits a fixed period): a request in a handler at that moment gets no reply, and a request the server had
 * already sent this process is dropped; the caller waits for its time-out and answers 503. Seen in the rolling
 * restart of the production layout (tools/cluster): one lead in 489 requests.
 *
 * Here `close()` drains each subscription (the server stops routing requests here, so the queue group's other
 * members take them, and what it had already sent is handled), waits for the handlers still running (at most
 * `graceMs`), flushes their replies, and only then closes.
 */
export class DrainingNatsServer extends ServerNats {
  private running = 0;
  private readonly idle = new Set<() => void>();

  constructor(
    options: ConstructorParameters<typeof ServerNats>[0],
    private readonly graceMs = 10_000,
  ) {
    super(options);
  }

  /**
   * Subscribes, then reports listening only once the server has the subscriptions (a flush is the server's answer to
   * everything sent before it). Nest's own reports at once: a request sent the moment after, from another connection,
   * could reach the server first and be answered "no responders" (a service just started looked ready but was not;
   * seen as `RequestError` in this class's test on a loaded machine). While NATS is away the flush fails and the
   * subscriptions are sent again on reconnect: listening is reported anyway, as before.
   */
  override start(callback: (error?: unknown) => void): void {
    super.start((error?: unknown) => {
      if (error) return callback(error);
      void this.unwrap<NatsClient>()
        .flush()
        .catch(() => undefined)
        .then(() => callback());
    });
  }

  override async handleMessage(channel: string, natsMsg: unknown): Promise<unknown> {
    this.running += 1;
    try {
      // Resolves once the handler's result is scheduled for sending (Nest sends it on the next tick).
      return await super.handleMessage(channel, natsMsg);
    } finally {
      this.running -= 1;
      if (this.running === 0) for (const resolve of this.idle) resolve();
    }
  }

  override async close(): Promise<void> {
    let client: NatsClient | null = null;
    try {
      client = this.unwrap<NatsClient>();
    } catch {
      // Never connected: nothing to drain.
    }
    if (client) {
      // Nest keeps the subscriptions it made in a private list; draining them is what its own close leaves out.
      const subscriptions = (this as unknown as { subscriptions: Subscription[] }).subscriptions;
      await Promise.allSettled(subscriptions.map((s) => s.drain()));
      if (this.running > 0) {
        let done: () => void = () => undefined;
        await Promise.race([
          new Promise<void>((resolve) => {
            done = resolve;
            this.idle.add(resolve);
          }),
          new Promise<void>((resolve) => setTimeout(resolve, this.graceMs).unref()),
        ]);
        this.idle.delete(done);
      }
      // The last replies are published on the next tick; then they leave the socket before it closes.
      await new Promise<void>((resolve) => setImmediate(resolve));
      await client.flush().catch(() => undefined);
    }
    await super.close();
  }
}
