import 'reflect-metadata';
import type { DynamicModule, INestApplication, ModuleMetadata } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import type { z } from 'zod';
import { ConfigError, createLogger, loadConfig, type Logger } from '@digicard/config';
import type { ServiceName } from '@digicard/contracts';
import { createDatabase, createPool, pingDatabase, runMigrations } from '@digicard/db';
import { connectNats, ensureEventStream, jetStreamHandles, OutboxRelay, type OutboxTable } from '@digicard/messaging';
import type { ServiceContext } from './context.js';
import { CoreModule } from './core.module.js';
import { HealthRegistry } from './health.js';
import { PinoNestLogger } from './nest-logger.js';

export interface ServiceBaseConfig {
  LOG_LEVEL: string;
  HOST: string;
  HEALTH_PORT: number;
  NATS_URL: string;
  DATABASE_URL: string;
  JETSTREAM_REPLICAS: number;
}

export interface ServiceDefinition<C extends ServiceBaseConfig> {
  service: ServiceName;
  configSchema: z.ZodType<C>;
  /** The folder of the service's committed drizzle migrations. */
  migrationsFolder: string;
  /** The service's outbox table, when it publishes events. */
  outbox?: OutboxTable;
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

/**
 * Starts a service: config, migrations, NATS (request/reply through Nest, events through JetStream), the outbox
 * relay, the health endpoint; and stops it gracefully on SIGTERM/SIGINT (stop taking requests, close workers and
 * consumers, drain NATS, close the pool).
 */
export async function bootstrapService<C extends ServiceBaseConfig>(def: ServiceDefinition<C>): Promise<void> {
  const config = readConfigOrExit(def.service, def.configSchema);
  const logger = createLogger(def.service, config.LOG_LEVEL);
  installProcessHandlers(logger);
  const closers: Array<() => Promise<void>> = [];
  try {
    const pool = createPool(config.DATABASE_URL, def.service);
    await runMigrations(pool, def.service, def.migrationsFolder);
    const nc = await connectNats(config.NATS_URL, def.service);
    const { js, jsm } = await jetStreamHandles(nc);
    await ensureEventStream(jsm, def.service, config.JETSTREAM_REPLICAS);
    const db = createDatabase(pool);
    const relay = def.outbox ? new OutboxRelay(db, def.outbox, js, logger) : null;
    const health = new HealthRegistry(def.service)
      .add('postgres', () => pingDatabase(pool))
      .add('nats', async () => {
        await nc.rtt();
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
      imports: [CoreModule.register(ctx), ...((await def.imports(ctx)) ?? [])],
    };
    const app = await NestFactory.create(root, { logger: new PinoNestLogger(logger), abortOnError: false });
    app.connectMicroservice<MicroserviceOptions>(
      { transport: Transport.NATS, options: { servers: config.NATS_URL.split(','), queue: def.service, name: `${def.service}-rpc` } },
      { inheritAppConfig: true },
    );
    await app.startAllMicroservices();
    await def.afterStart?.(app, ctx);
    relay?.start();
    await app.listen(config.HEALTH_PORT, config.HOST);
    const server = app.getHttpServer() as { address(): { port: number } | string | null };
    const address = server.address() as { port: number } | null;
    logger.info({ healthPort: address?.port }, `${def.service} started`);

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
        await app.close();
        for (const close of closers.reverse()) await close();
        await relay?.stop();
        await nc.drain();
        await pool.end();
        logger.info(`${def.service} stopped`);
        process.exit(0);
      } catch (error) {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      }
    };
    process.once('SIGTERM', () => void stop('SIGTERM'));
    process.once('SIGINT', () => void stop('SIGINT'));
  } catch (error) {
    logger.fatal({ err: error }, `${def.service} failed to start`);
    process.exit(1);
  }
}

export function installProcessHandlers(logger: Logger): void {
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection'));
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception');
    process.exit(1);
  });
}
