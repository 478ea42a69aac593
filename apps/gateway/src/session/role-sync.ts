import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { Events, deadLetterStreamFor, durableName, streamFor } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { ensureDeadLetterStream, jetStreamHandles, startEventConsumer, type RunningConsumer } from '@digicard/messaging';
import { CONFIG, LOGGER } from '@digicard/server';
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
  private stopped = false;
  private starting: Promise<void> = Promise.resolve();
  private wakeUp: (() => void) | null = null;

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
    this.stopped = true;
    this.wakeUp?.();
    await this.starting;
    await this.consumer?.stop();
  }

  private async start(): Promise<void> {
    for (let wait = 500; !this.stopped; wait = Math.min(wait * 2, 10_000)) {
      try {
        const { js, jsm } = await jetStreamHandles(this.nats.unwrap<NatsConnection>());
        await ensureDeadLetterStream(jsm, 'gateway', this.config.JETSTREAM_REPLICAS);
        if (this.stopped) return;
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
              const changed = await this.sessions.setRoleFor(data.accountId, data.role, data.changedAt);
              if (changed > 0)
                this.logger.info({ accountId: data.accountId, role: data.role, sessions: changed }, 'sessions given their new role');
            },
          },
          this.logger,
        );
        return;
      } catch (error) {
        this.logger.warn({ err: error, retryInMs: wait }, 'role changes not consumed yet: JetStream unavailable');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }
}
