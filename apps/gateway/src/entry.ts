import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Redis } from 'ioredis';
import { createLogger, redisConnectionOptions } from '@digicard/config';
import {
  createNatsClient,
  installProcessHandlers,
  PinoNestLogger,
  readConfigOrExit,
  shutdownTelemetry,
  startTelemetry,
} from '@digicard/server';
import { GatewayModule } from './app.module.js';
import { ConfigSchema } from './config.js';
import { GatewayHealth } from './health/gateway-health.js';
import { startInternalHealthServer } from './health/internal-server.js';
import { configureGatewayApp } from './http-app.js';

// Tracing is set up before Nest, so every span of the process has the SDK behind it.
await startTelemetry('gateway');
const config = readConfigOrExit('gateway', ConfigSchema);
const logger = createLogger('gateway', config.LOG_LEVEL);
installProcessHandlers(logger);

try {
  const redis = new Redis({ ...redisConnectionOptions(config), maxRetriesPerRequest: 2, enableOfflineQueue: true });
  redis.on('error', (error) => logger.warn({ err: error }, 'redis connection problem'));
  const nats = createNatsClient(config.NATS_URL, 'gateway');
  await nats.connect();

  const app = await NestFactory.create<NestExpressApplication>(GatewayModule.register({ config, logger, redis, nats }), {
    logger: new PinoNestLogger(logger),
    bodyParser: false,
    abortOnError: false,
  });
  configureGatewayApp(app, config, logger);

  await app.listen(config.PORT, config.HOST);
  const internal = await startInternalHealthServer(app.get(GatewayHealth), config.HEALTH_PORT, config.HOST, logger);
  logger.info({ url: config.PUBLIC_URL, port: config.PORT, healthPort: config.HEALTH_PORT }, 'gateway started');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'gateway shutting down');
    setTimeout(() => process.exit(1), 15_000).unref();
    internal.close();
    await app.close();
    await nats.close();
    await redis.quit().catch(() => undefined);
    await shutdownTelemetry().catch(() => undefined);
    logger.info('gateway stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
} catch (error) {
  logger.fatal({ err: error }, 'gateway failed to start');
  process.exit(1);
}
