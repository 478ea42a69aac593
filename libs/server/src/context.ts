import type { Logger } from '@digicard/config';
import type { ServiceName } from '@digicard/contracts';
import type { Database, Pool } from '@digicard/db';
import type { JetStreamClient, JetStreamManager, NatsConnection, OutboxRelay } from '@digicard/messaging';
import type { HealthRegistry } from './health.js';

/** What a service opened at start-up; closed in reverse order at shutdown. */
export interface ServiceContext<C> {
  service: ServiceName;
  config: C;
  logger: Logger;
  pool: Pool;
  db: Database;
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  relay: OutboxRelay | null;
  health: HealthRegistry;
  /** Registers a resource to close at shutdown (queues, workers, consumers), before NATS and the pool. */
  onShutdown(close: () => Promise<void>): void;
}
