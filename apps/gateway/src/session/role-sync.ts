import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { Events, deadLetterStreamFor, durableName, streamFor } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { jetStreamHandles, startEventConsumer, waitForStreams, type RunningConsumer } from '@digicard/messaging';
import { CONFIG, LOGGER, retry } from '@digicard/server';
import type { Config } from '../config.js';
import { NATS_CLIENT } from '../tokens.js';
import { SessionStore } from './session.store.js';

/** Deliveries of one role change before it is dead-lettered: with the 60 s backoff, Redis may be away for hours. */
const MAX_DELIVER = 240;

/**
 * A role changes in identity (staff make a team leader or take it back; a DigiPlatinum subscription starts or ends)
 * while its owner is signed in: the gateway rewrites the account's sessions in Redis, so the next request carries the
 * new role and nobody has to sign in again.
 *
 * The change arrives through a durable JetStream consumer shared by every replica (one of them handles each event:
 * the sessions are in the Redis they share). An event published while no gateway was up is handled when one starts;
 * while Redis is away it is redelivered with a growing delay instead of dropped; events handled out of order cannot
 * bring an older role back (`SessionStore.setRoleFor` keeps the time of the latest change). What still fails after
 * MAX_DELIVER deliveries goes to the gateway's dead-letter stream for an operator.
 */
@Injectable()
export class RoleSync implements OnModuleInit, OnModuleDestroy {
  private consumer: RunningConsumer | null = null;
  private readonly stopping = new AbortController();
  private starting: Promise<void> = Promise.resolve();

  constructor(
    @Inject(NATS_CLIENT) private readonly nats: ClientProxy,
    @Inject(SessionStore) private readonly sessions: SessionStore,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    // In the background: start-up (and the public pages) do not wait for JetStream; a failed attempt is tried again.
    this.starting = this.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping.abort();
    await this.starting;
    await this.consumer?.stop();
  }

  private async start(): Promise<void> {
    const waitMs = (attempt: number) => Math.min(500 * 2 ** (attempt - 1), 10_000);
    await retry(
      async () => {
        const { js, jsm } = await jetStreamHandles(this.nats.unwrap<NatsConnection>());
        // Its dead-letter stream is the stream provisioner's to declare (nats-streams): wait for it, as the services do.
        if (!(await waitForStreams(jsm, [deadLetterStreamFor('gateway').name], this.logger, this.stopping.signal))) return;
        this.consumer = await startEventConsumer(
          js,
          jsm,
          {
            stream: streamFor(Events.roleChanged.owner).name,
            durable: durableName('gateway', Events.roleChanged.subject),
            event: Events.roleChanged,
            deadLetterSubject: deadLetterStreamFor('gateway').subjectFor(Events.roleChanged.subject),
            maxDeliver: MAX_DELIVER,
            handle: async ({ data }) => {
              const changed = await this.sessions.setRoleFor(data.accountId, data.role, data.changedAt, { signOut: data.signOut });
              if (changed > 0)
                this.logger.info(
                  { accountId: data.accountId, role: data.role, sessions: changed },
                  data.signOut ? 'sessions ended: a role was taken away' : 'sessions given their new role',
                );
            },
          },
          this.logger,
        );
      },
      {
        signal: this.stopping.signal,
        delayMs: waitMs,
        onRetry: (error, attempt) =>
          this.logger.warn({ err: error, retryInMs: waitMs(attempt) }, 'role changes not consumed yet: JetStream unavailable'),
      },
    ).catch((error: unknown) => {
      // Only stopping ends the tries; a gateway shutting down before JetStream came back consumes nothing.
      if (!this.stopping.signal.aborted) throw error;
    });
  }
}
