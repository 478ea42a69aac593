import 'reflect-metadata';
import type { DynamicModule, INestApplication, ModuleMetadata } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, MetadataScanner, NestFactory } from '@nestjs/core';
import type { MicroserviceOptions } from '@nestjs/microservices';
import type { z } from 'zod';
import { ConfigError, createLogger, loadConfig, type Logger } from '@digicard/config';
import { deadLetterStreamFor, ownStreams, type ServiceName } from '@digicard/contracts';
import { createDatabase, createPool, pingDatabase, runMigrations } from '@digicard/db';
import {
  connectNats,
  jetStreamHandles,
  missingStreams,
  natsConnectionOptions,
  ProcessedMessagesPurge,
  OutboxRelay,
  waitForStreams,
  type NatsConnection,
  type OutboxTable,
  type ProcessedMessagesTable,
} from '@digicard/messaging';
import { consumeEventOnce } from './consume.js';
import { DrainingNatsServer } from './draining-nats-server.js';
import type { ServiceContext } from './context.js';
import { ON_EVENT, type EventContext, type EventHandler, type OnEventMetadata } from './handles.js';
import { CoreModule } from './core.module.js';
import { HealthRegistry } from './health.js';
import { PinoNestLogger } from './nest-logger.js';
import { shutdownTelemetry } from './telemetry.js';
import { deadLetters as deadLetterGauge, outboxOldestAge, outboxPending, startDefaultMetrics, unregister } from './metrics.js';
import { sql } from 'drizzle-orm';

export interface ServiceBaseConfig {
  LOG_LEVEL: string;
  HOST: string;
  HEALTH_PORT: number;
  NATS_URL: string;
  DATABASE_URL: string;
  /** How long a call to another service may take before it counts as unavailable (`RPC_CLIENT`). */
  RPC_TIMEOUT_MS?: number;
  /** How long readiness stays 200 ("degraded") while PostgreSQL, NATS or Redis does not answer. */
  READINESS_GRACE_SECONDS?: number;
}

export interface ServiceDefinition<C extends ServiceBaseConfig> {
  service: ServiceName;
  configSchema: z.ZodType<C>;
  /** The folder of the service's committed drizzle migrations. */
  migrationsFolder: string;
  /** The service's outbox table, when it publishes events. */
  outbox?: OutboxTable;
  /** The service's record of handled events, when it has `@OnEvent` handlers. */
  processedMessages?: ProcessedMessagesTable;
  /** Feature modules; they may read the context (for example to open queues). */
  imports(ctx: ServiceContext<C>): Promise<ModuleMetadata['imports']> | ModuleMetadata['imports'];
  /** Runs once the app is up and answering RPCs: start consumers and workers here. */
  afterStart?(app: INestApplication, ctx: ServiceContext<C>): Promise<void>;
}

@Module({})
class ServiceRootModule {}

/** Reads config (or exits naming every bad key), logs as JSON, fails fast and logs when start-up fails. */
export function readConfigOrExit<C>(app: string, schema: z.ZodType<C>): C {
  try {
    return loadConfig(app, schema);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${JSON.stringify({ level: 'fatal', service: app, msg: error.message, problems: error.problems })}\n`);
      process.exit(78);
    }
    throw error;
  }
}

/** A service started in this process, and how to stop it. */
export interface RunningService<C> {
  app: INestApplication;
  ctx: ServiceContext<C>;
  /** The port its health endpoint listens on. */
  healthPort: number;
  /** Stops taking requests, closes workers and consumers, drains NATS, closes the pool. */
  close(): Promise<void>;
}

/**
 * Starts a service with a given config: migrations, NATS (request/reply through Nest, events through JetStream),
 * the `@OnEvent` consumers, the outbox relay, the health endpoint. The process entry point (`bootstrapService`)
 * and the in-process tests of each service both start it this way.
 */
export async function startService<C extends ServiceBaseConfig>(
  def: ServiceDefinition<C>,
  config: C,
  logger: Logger,
): Promise<RunningService<C>> {
  const closers: Array<() => Promise<void>> = [];
  const pool = createPool(config.DATABASE_URL, def.service, 10, logger);
  let nc: NatsConnection | null = null;
  try {
    await runMigrations(pool, def.service, def.migrationsFolder);
    nc = await connectNats(config.NATS_URL, def.service);
    const { js, jsm } = await jetStreamHandles(nc);
    const db = createDatabase(pool);
    const relay = def.outbox ? new OutboxRelay(db, def.outbox, js, logger) : null;
    startDefaultMetrics();
    if (def.outbox) {
      const outbox = def.outbox;
      // One query per scrape: how many rows wait, and how long the oldest has (0 when none).
      const unsent = async () => {
        const [row] = await db
          .select({
            pending: sql<number>`count(*)::int`,
            age: sql<number>`coalesce(extract(epoch from now() - min(${outbox.createdAt})), 0)::float8`,
          })
          .from(outbox)
          .where(sql`${outbox.sentAt} IS NULL`);
        return row ?? { pending: 0, age: 0 };
      };
      const labels = { service: def.service };
      const removePending = outboxPending.add(async (set) => set(labels, (await unsent()).pending));
      const removeAge = outboxOldestAge.add(async (set) => set(labels, (await unsent()).age));
      closers.push(unregister(removePending), unregister(removeAge));
    }
    const connection = nc;
    const ownStreamNames = ownStreams(def.service).map((s) => s.name);
    const health = new HealthRegistry(def.service, { graceMs: (config.READINESS_GRACE_SECONDS ?? 60) * 1000 })
      .add('postgres', () => pingDatabase(pool))
      .add('nats', async () => {
        await connection.rtt();
      })
      // Its events stream and dead-letter stream are declared by the stream provisioner, never by the service.
      .add('streams', async () => {
        const missing = await missingStreams(jsm, ownStreamNames);
        if (missing.length > 0)
          throw new Error(`${missing.join(', ')} not declared yet: the stream provisioner (nats-streams) has not run`);
      });
    const ctx: ServiceContext<C> = {
      service: def.service,
      config,
      logger,
      pool,
      db,
      nc,
      js,
      jsm,
      relay,
      health,
      onShutdown: (close) => closers.push(close),
    };
    const root: DynamicModule = {
      module: ServiceRootModule,
      imports: [CoreModule.register(ctx), DiscoveryModule, ...((await def.imports(ctx)) ?? [])],
    };
    const app = await NestFactory.create(root, { logger: new PinoNestLogger(logger), abortOnError: false });
    // Request/reply in the queue group named after the service; stopping drains it (DrainingNatsServer).
    app.connectMicroservice<MicroserviceOptions>(
      {
        strategy: new DrainingNatsServer({ ...natsConnectionOptions(config.NATS_URL), queue: def.service, name: `${def.service}-rpc` }),
      },
      { inheritAppConfig: true },
    );
    await app.startAllMicroservices();
    await startEventHandlers(app, ctx, def.processedMessages ?? null);
    await def.afterStart?.(app, ctx);
    // Events are relayed once the provisioner has declared the stream they go to; until then they wait in the outbox.
    const stopWaiting = new AbortController();
    const streamsReady = waitForStreams(jsm, ownStreamNames, logger, stopWaiting.signal).then((ready) => {
      if (ready && !stopWaiting.signal.aborted) relay?.start();
    });
    closers.push(async () => {
      stopWaiting.abort();
      await streamsReady;
    });
    await app.listen(config.HEALTH_PORT, config.HOST);
    const address = (app.getHttpServer() as { address(): { port: number } | string | null }).address() as { port: number } | null;
    return {
      app,
      ctx,
      healthPort: address?.port ?? config.HEALTH_PORT,
      async close() {
        await app.close();
        for (const close of closers.reverse()) await close();
        await relay?.stop();
        await connection.drain();
        await pool.end();
      },
    };
  } catch (error) {
    await nc?.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
    throw error;
  }
}

/** Opens one durable consumer for every `@OnEvent` method of the service's providers and controllers. */
async function startEventHandlers<C extends ServiceBaseConfig>(
  app: INestApplication,
  ctx: ServiceContext<C>,
  processed: ProcessedMessagesTable | null,
): Promise<void> {
  const discovery = app.get(DiscoveryService);
  const scanner = app.get(MetadataScanner);
  const handlers: Array<{ event: OnEventMetadata['event']; run: (data: unknown, context: EventContext) => Promise<void> }> = [];
  for (const wrapper of [...discovery.getProviders(), ...discovery.getControllers()]) {
    const instance = wrapper.instance as Record<string, unknown> | null | undefined;
    if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
    const prototype = Object.getPrototypeOf(instance) as object;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const method = instance[name];
      if (typeof method !== 'function') continue;
      const metadata = Reflect.getMetadata(ON_EVENT, method) as OnEventMetadata | undefined;
      if (!metadata) continue;
      handlers.push({ event: metadata.event, run: (data, context) => (method as EventHandler<z.ZodType>).call(instance, data, context) });
    }
  }
  if (handlers.length === 0) return;
  if (!processed) throw new Error(`${ctx.service} handles events but its definition names no processedMessages table`);
  // The stream provisioner declares every stream: a consumer whose stream is not there yet waits for it in the
  // background. What cannot be handled goes to this service's own dead-letter stream, which health reports.
  const deadLetters = deadLetterStreamFor(ctx.service).name;
  ctx.onShutdown(
    unregister(deadLetterGauge.add(async (set) => set({ stream: deadLetters }, (await ctx.jsm.streams.info(deadLetters)).state.messages))),
  );
  ctx.health.alert('deadLetters', async () => {
    const info = await ctx.jsm.streams.info(deadLetters);
    return info.state.messages > 0 ? `${info.state.messages} events in ${deadLetters} need an operator` : null;
  });
  const purge = new ProcessedMessagesPurge(ctx.db, processed, ctx.logger);
  purge.start();
  ctx.onShutdown(() => purge.stop());
  for (const handler of handlers) {
    await consumeEventOnce(ctx, processed, handler.event, (tx, data, eventId, afterCommit) =>
      handler.run(data, { tx, eventId, afterCommit }),
    );
  }
}

/**
 * The entry point of a service process: reads config (or exits naming every bad key), starts the service, logs as
 * JSON, fails fast when start-up fails, and stops gracefully on SIGTERM/SIGINT.
 */
export async function bootstrapService<C extends ServiceBaseConfig>(def: ServiceDefinition<C>): Promise<void> {
  const config = readConfigOrExit(def.service, def.configSchema);
  const logger = createLogger(def.service, config.LOG_LEVEL);
  installProcessHandlers(logger);
  let running: RunningService<C>;
  try {
    running = await startService(def, config, logger);
  } catch (error) {
    logger.fatal({ err: error }, `${def.service} failed to start`);
    process.exit(1);
  }
  logger.info({ healthPort: running.healthPort }, `${def.service} started`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${def.service} shutting down`);
    const force = setTimeout(() => {
      logger.error('shutdown took over 15 s; exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    try {
      await running.close();
      await shutdownTelemetry().catch(() => undefined);
      logger.info(`${def.service} stopped`);
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

export function installProcessHandlers(logger: Logger): void {
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection'));
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception');
    process.exit(1);
  });
}
