import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { Events } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { LOGGER } from '@digicard/server';
import { NATS_CLIENT } from '../tokens.js';
import { SessionStore } from './session.store.js';

/**
 * A role changes in identity (staff make a team leader; a DigiPlatinum subscription starts or ends) while its owner is
 * signed in: every gateway replica hears `identity.user.role-changed` on core NATS and rewrites the account's sessions
 * in Redis (shared by all replicas, so whichever writes first is enough, and writing the same role again is a no-op).
 * The next request already carries the new role; nobody has to sign in again. The services check the tier themselves,
 * so a session that missed the event (no gateway up when it was published) still cannot use what the tier lacks.
 */
@Injectable()
export class RoleSync implements OnModuleInit, OnModuleDestroy {
  private subscription: Subscription | null = null;

  constructor(
    @Inject(NATS_CLIENT) private readonly nats: ClientProxy,
    @Inject(SessionStore) private readonly sessions: SessionStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.subscription = this.nats.unwrap<NatsConnection>().subscribe(Events.roleChanged.subject, {
      callback: (error, msg) => {
        if (error) return;
        let data;
        try {
          data = Events.roleChanged.data.parse(msg.json<{ data: unknown }>().data);
        } catch {
          return;
        }
        this.sessions.setRoleFor(data.accountId, data.role).catch((err: unknown) => {
          this.logger.warn({ err, accountId: data.accountId }, 'sessions keep their old role: Redis unavailable');
        });
      },
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }
}
