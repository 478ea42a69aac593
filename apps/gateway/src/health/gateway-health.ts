import { Inject, Injectable } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { Redis } from 'ioredis';
import { firstValueFrom, timeout } from 'rxjs';
import { HealthReportSchema, ServiceNames, deadLetterStreamFor, healthSubject, type HealthReport } from '@digicard/contracts';
import { isNotFound } from '@digicard/messaging';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { CONFIG, HealthRegistry } from '@digicard/server';
import type { Config } from '../config.js';
import { NATS_CLIENT, REDIS } from '../tokens.js';
import { ItnSourceRejections } from '../billing/itn-gate.js';

/** The gateway's health: its own dependencies (readiness), and the whole system's as the services report it. */
@Injectable()
export class GatewayHealth {
  private readonly own: HealthRegistry;
  /** Made once (it asks the server for JetStream's account info): readiness probes read the alert every few seconds. */
  private jsm: Promise<JetStreamManager> | null = null;
  /** When the gateway's own dependencies were first seen down in the current spell, or null while they are up. */
  private downSince: number | null = null;

  constructor(
    @Inject(NATS_CLIENT) private readonly client: ClientProxy,
    @Inject(REDIS) redis: Redis,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(ItnSourceRejections) itnRejections: ItnSourceRejections,
  ) {
    this.own = new HealthRegistry('gateway')
      .add('nats', async () => {
        await this.client.unwrap<NatsConnection>().rtt();
      })
      .add('redis', async () => {
        await redis.ping();
      })
      // Role changes the gateway gave up on (see RoleSync): an operator has to look. The stream is the provisioner's
      // to declare; until it has, role changes are not consumed (public pages are served all the same).
      .alert('deadLetters', async () => {
        const stream = deadLetterStreamFor('gateway').name;
        try {
          const info = await (await this.jetStreamManager()).streams.info(stream);
          return info.state.messages > 0 ? `${info.state.messages} events in ${stream} need an operator` : null;
        } catch (error) {
          if (isNotFound(error)) return `${stream} not declared yet: the stream provisioner (nats-streams) has not run, role changes wait`;
          throw error;
        }
      })
      // PayFast notifications refused for their address: a proxy hiding client addresses or a new PayFast range
      // would refuse real payments (PayFast retries them for a while).
      .alert('itnSourceRejected', () => {
        const count = itnRejections.lastHour();
        return Promise.resolve(
          count > 0
            ? `${count} PayFast notification(s) refused in the last hour: not from PAYFAST_SOURCE_RANGES (check it and TRUST_PROXY)`
            : null,
        );
      });
  }

  /**
   * Readiness: the gateway's own dependencies. A service being down must not take the gateway out of rotation, and
   * neither must a blip of NATS or Redis, which every replica would see at once (all of them would leave the
   * Service together): while the gateway serves cached pages and answers 503 to what needs the missing part, it
   * reports `degraded` and stays ready for `READINESS_GRACE_SECONDS`, then `error` (503) if it is still down.
   */
  async ready(now = Date.now()): Promise<HealthReport> {
    const report = await this.own.report();
    if (report.status === 'ok') {
      this.downSince = null;
      return report;
    }
    this.downSince ??= now;
    const within = now - this.downSince < this.config.READINESS_GRACE_SECONDS * 1000;
    return { ...report, status: within ? 'degraded' : 'error' };
  }

  /** The whole system: the gateway's dependencies and every service's own report. */
  async system(): Promise<HealthReport> {
    const own = await this.own.report();
    const services = await Promise.all(ServiceNames.map(async (name) => [name, await this.serviceReport(name)] as const));
    const checks: HealthReport['checks'] = { ...own.checks };
    for (const [name, report] of services) {
      const down = Object.entries(report?.checks ?? {}).filter(([, c]) => c.status === 'down');
      checks[name] = report
        ? report.status === 'ok'
          ? { status: 'up' }
          : { status: 'down', error: down.map(([k, c]) => `${k}: ${c.error ?? 'down'}`).join('; ') }
        : { status: 'down', error: 'no answer over NATS' };
    }
    const ok = Object.values(checks).every((c) => c.status === 'up');
    const alerts = [
      ...(own.alerts ?? []).map((a) => `gateway ${a}`),
      ...services.flatMap(([name, report]) => (report?.alerts ?? []).map((a) => `${name} ${a}`)),
    ];
    // Optional features each service reports (Apple Wallet in profiles: on, or off and why), named `<service>.<feature>`.
    const features = Object.fromEntries(
      services.flatMap(([name, report]) => Object.entries(report?.features ?? {}).map(([feature, state]) => [`${name}.${feature}`, state])),
    );
    return {
      status: ok ? 'ok' : 'error',
      service: 'gateway',
      checks,
      ...(alerts.length > 0 ? { alerts } : {}),
      ...(Object.keys(features).length > 0 ? { features } : {}),
    };
  }

  private jetStreamManager(): Promise<JetStreamManager> {
    this.jsm ??= jetstreamManager(this.client.unwrap<NatsConnection>()).catch((error: unknown) => {
      this.jsm = null; // JetStream was not there: ask again next time
      throw error;
    });
    return this.jsm;
  }

  private async serviceReport(name: (typeof ServiceNames)[number]): Promise<HealthReport | null> {
    try {
      const answer: unknown = await firstValueFrom(this.client.send(healthSubject(name), {}).pipe(timeout(2000)));
      return HealthReportSchema.parse(answer);
    } catch {
      return null;
    }
  }
}
