import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ClientProxy } from '@nestjs/microservices';
import { Redis } from 'ioredis';
import { createLogger } from '@digicard/config';
import { PinoNestLogger, createNatsClient } from '@digicard/server';
import { provisionStreamsAt } from '@digicard/service-testing';
import { ApiClient, DEFAULTS, PrivateNats, REPO_ROOT, SALES_INBOX, freePort, requireServers, testLogDestination } from '@digicard/testing';
import { GatewayModule } from '../../src/app.module.js';
import { ConfigSchema } from '../../src/config.js';
import { GatewayHealth } from '../../src/health/gateway-health.js';
import { startInternalHealthServer } from '../../src/health/internal-server.js';
import { configureGatewayApp } from '../../src/http-app.js';

/**
 * The gateway inside the test's own process: its real Nest module compiled by `@nestjs/testing`, wrapped in the
 * same middleware as the process (`configureGatewayApp`: sessions, CSRF and cross-site checks, body parsers, rate
 * limits, the error filter), listening on a free local port, on real Redis (a key prefix of its own) and a NATS
 * server of its own. No service runs unless the test starts one: a call that gets past the gateway's rules meets
 * an empty bus (503), or whatever the test answers on `natsUrl` (a responder, or an in-process service from
 * libs/service-testing started with `NATS_URL: gateway.natsUrl`). What it logs is kept (`logs()`) and printed only
 * when a test fails. Its internal health listener (`HEALTH_PORT` in the process) is on a free port of its own
 * (`gatewayHealthUrl`). Starts in about a second, where a whole system of processes takes ten or more.
 */
export class InProcessGateway {
  private constructor(
    readonly app: NestExpressApplication,
    readonly url: string,
    readonly natsUrl: string,
    readonly redisPrefix: string,
    private readonly redis: Redis,
    private readonly nats: ClientProxy,
    private readonly ownNats: PrivateNats | null,
    private readonly lines: string[],
    private readonly internal: Server,
  ) {}

  /** `env` overrides the gateway's configuration (rate limits, time-outs); `natsUrl` puts it on a NATS server the test already runs. */
  static async start(env: Record<string, string> = {}, options: { natsUrl?: string } = {}): Promise<InProcessGateway> {
    await requireServers();
    const ownNats = options.natsUrl ? null : await new PrivateNats().start();
    const natsUrl = options.natsUrl ?? ownNats!.url;
    // The streams (its dead-letter stream among them), as the stream provisioner declares them before the apps start.
    await provisionStreamsAt(natsUrl);
    const port = await freePort();
    const redisPrefix = `g-${randomBytes(4).toString('hex')}`;
    const config = ConfigSchema.parse({
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      HEALTH_PORT: '0',
      NATS_URL: natsUrl,
      REDIS_URL: DEFAULTS.redisUrl,
      REDIS_KEY_PREFIX: redisPrefix,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // The web app's build (its default is relative to the gateway's build, not to its sources the test runs).
      WEB_DIST_DIR: join(REPO_ROOT, 'apps/web/dist'),
      // As TestSystem starts the gateway process.
      SALES_EMAIL: SALES_INBOX,
      WHATSAPP_NUMBER: '27821234567',
      ENQUIRY_RATE_LIMIT: '1000/60',
      REQUEST_TIMEOUT_MS: '5000',
      PAYFAST_SOURCE_RANGES: '127.0.0.1/32',
      ...env,
    });
    const lines: string[] = [];
    const logger = createLogger('gateway', config.LOG_LEVEL, {
      write(line: string) {
        lines.push(line);
        testLogDestination.write(line);
      },
    });
    const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
    redis.on('error', (error) => logger.warn({ err: error }, 'redis connection problem'));
    const nats = createNatsClient(config.NATS_URL, 'gateway');
    try {
      await nats.connect();
      const moduleRef = await Test.createTestingModule({ imports: [GatewayModule.register({ config, logger, redis, nats })] })
        .setLogger(new PinoNestLogger(logger))
        .compile();
      const app = moduleRef.createNestApplication<NestExpressApplication>({
        logger: new PinoNestLogger(logger),
        bodyParser: false,
        abortOnError: false,
      });
      configureGatewayApp(app, config, logger);
      await app.listen(config.PORT, config.HOST);
      const internal = await startInternalHealthServer(app.get(GatewayHealth), 0, config.HOST, logger);
      return new InProcessGateway(app, config.PUBLIC_URL, natsUrl, redisPrefix, redis, nats, ownNats, lines, internal);
    } catch (error) {
      await nats.close();
      redis.disconnect();
      await ownNats?.destroy();
      throw error;
    }
  }

  /** The gateway's address, as `TestSystem.gatewayUrl`. */
  get gatewayUrl(): string {
    return this.url;
  }

  /** The internal health listener, as `TestSystem.gatewayHealthUrl`. */
  get gatewayHealthUrl(): string {
    return `http://127.0.0.1:${(this.internal.address() as AddressInfo).port}`;
  }

  /** One call as the web app makes it, with no cookie (as `TestSystem.api`). */
  api(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): ReturnType<ApiClient['request']> {
    return new ApiClient(this.url).request(path, init);
  }

  /** A browser's worth of state (cookie, CSRF token) against this gateway. */
  client(): ApiClient {
    return new ApiClient(this.url);
  }

  /** The gateway's log lines so far (pino JSON), as `TestSystem.logsOf('gateway')` gives a process's. */
  logs(): string[] {
    return [...this.lines];
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.internal.close(resolve));
    await this.app.close();
    await this.nats.close();
    if (this.redis.status !== 'ready') {
      // A test that stopped its Redis (a fault test) leaves nothing to clean there.
      this.redis.disconnect();
    } else {
      let cursor = '0';
      do {
        const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.redisPrefix}:*`, 'COUNT', 500);
        if (keys.length > 0) await this.redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      await this.redis.quit();
    }
    await this.ownNats?.destroy();
  }
}
