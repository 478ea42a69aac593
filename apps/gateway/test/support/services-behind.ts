import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { ServiceName } from '@digicard/contracts';
import { InProcessService, builtServiceDefinition } from '@digicard/service-testing';
import type { ServiceBaseConfig } from '@digicard/server';
import { DEFAULTS, PAYFAST_TEST_MERCHANT, SALES_INBOX } from '@digicard/testing';
import type { InProcessGateway } from './in-process-gateway.js';

/**
 * The services the gateway's in-process tests start behind it. Payments gets no PayFast here: its PayFast addresses
 * point at a closed local port, so a call to PayFast fails as if PayFast were down; tests that pay run in the system
 * lane with the PayFast simulator.
 */
export type BehindName = ServiceName;
const NO_PAYFAST = 'http://127.0.0.1:1';

/**
 * Services started in the test's own process on the gateway's NATS server, so the in-process gateway's calls reach
 * them as the process's would reach the processes; each has its own database (`get(name).sql` reads it) and, for
 * the services with queues, a Redis key prefix of its own. The environment mirrors what TestSystem gives each process;
 * each definition comes from the service's build, so the gateway's `service` target depends on those builds.
 */
export class ServicesBehind {
  private readonly queuePrefix = `u-gw-${randomBytes(4).toString('hex')}`;
  private readonly started = new Map<BehindName, InProcessService<ServiceBaseConfig>>();

  private constructor(private readonly gateway: InProcessGateway) {}

  /** `env` overrides a service's configuration, as TestSystem's `env` does. */
  static async start(
    gateway: InProcessGateway,
    names: BehindName[],
    env: Partial<Record<BehindName, Record<string, string>>> = {},
  ): Promise<ServicesBehind> {
    const services = new ServicesBehind(gateway);
    try {
      for (const name of names) {
        services.started.set(
          name,
          await InProcessService.start(await builtServiceDefinition(name), { ...services.envFor(name), ...env[name] }),
        );
      }
    } catch (error) {
      await services.stop().catch(() => undefined);
      throw error;
    }
    return services;
  }

  private envFor(name: BehindName): Record<string, string> {
    const common = { NATS_URL: this.gateway.natsUrl, LOG_LEVEL: 'info' };
    const queues = { REDIS_URL: DEFAULTS.redisUrl, QUEUE_PREFIX: this.queuePrefix, PUBLIC_URL: this.gateway.url };
    switch (name) {
      case 'orders':
        return { ...common, ...queues, PROOF_RENDER_BACKOFF_MS: '200' };
      case 'notifications':
        return { ...common, ...queues, MAIL_FROM: 'DigiCard <no-reply@digicard.test>', SALES_INBOX, BRAND_NAME: 'DigiCard' };
      case 'payments':
        return {
          ...common,
          PUBLIC_URL: this.gateway.url,
          PAYFAST_PROCESS_URL: `${NO_PAYFAST}/eng/process`,
          PAYFAST_VALIDATE_URL: `${NO_PAYFAST}/eng/query/validate`,
          PAYFAST_API_URL: NO_PAYFAST,
          PAYFAST_MERCHANT_ID: PAYFAST_TEST_MERCHANT.id,
          PAYFAST_MERCHANT_KEY: PAYFAST_TEST_MERCHANT.key,
          PAYFAST_PASSPHRASE: PAYFAST_TEST_MERCHANT.passphrase,
          PAYFAST_SOURCE_RANGES: '127.0.0.1/32',
        };
      case 'identity':
      case 'profiles':
      case 'teams':
        return common;
    }
  }

  get(name: BehindName): InProcessService<ServiceBaseConfig> {
    const service = this.started.get(name);
    if (!service) throw new Error(`${name} was not started behind the gateway`);
    return service;
  }

  async stop(): Promise<void> {
    for (const service of [...this.started.values()].reverse()) await service.stop();
    this.started.clear();
    const redis = new Redis(DEFAULTS.redisUrl);
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${this.queuePrefix}:*`, 'COUNT', 500);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    } finally {
      await redis.quit();
    }
  }
}
