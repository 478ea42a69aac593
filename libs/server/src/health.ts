import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FeatureState, HealthReport } from '@digicard/contracts';
import { HEALTH } from './tokens.js';

export type HealthCheck = () => Promise<void>;

export interface HealthOptions {
  /** Each check's time-out. */
  timeoutMs?: number;
  /**
   * How long a spell of failing checks is reported `degraded` (readiness stays 200) before `error` (503): a database
   * restart or a NATS blip, seen by every replica at once, must not take them all out of the Service together.
   */
  graceMs?: number;
}

/** Named checks of real dependencies (a query, a round trip, a ping), each bounded by a time-out. */
export class HealthRegistry {
  private readonly checks = new Map<string, HealthCheck>();
  private readonly timeoutMs: number;
  private readonly graceMs: number;
  /** When a check was first seen failing in the current spell, or null while all are up. */
  private downSince: number | null = null;

  constructor(
    readonly service: string,
    options: HealthOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.graceMs = options.graceMs ?? 0;
  }

  add(name: string, check: HealthCheck): this {
    this.checks.set(name, check);
    return this;
  }

  private readonly alertChecks = new Map<string, () => Promise<string | null>>();

  /** Something an operator must see (in the report's `alerts`) that does not make the replica unready. */
  alert(name: string, check: () => Promise<string | null>): this {
    this.alertChecks.set(name, check);
    return this;
  }

  private readonly features = new Map<string, FeatureState>();

  /** An optional feature's state (on, or off and why), reported with every check; it never makes the replica unready. */
  feature(name: string, state: FeatureState): this {
    this.features.set(name, state);
    return this;
  }

  private async alerts(): Promise<string[]> {
    const found = await Promise.all(
      [...this.alertChecks].map(([name, check]) =>
        withTimeout(check(), this.timeoutMs).then(
          (a) => (a ? `${name}: ${a}` : null),
          () => null,
        ),
      ),
    );
    return found.filter((a): a is string => a !== null);
  }

  async report(now = Date.now()): Promise<HealthReport> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        const started = performance.now();
        try {
          await withTimeout(check(), this.timeoutMs);
          return [name, { status: 'up' as const, latencyMs: Math.round(performance.now() - started) }] as const;
        } catch (error) {
          return [name, { status: 'down' as const, error: error instanceof Error ? error.message : 'check failed' }] as const;
        }
      }),
    );
    const checks: HealthReport['checks'] = {};
    for (const [name, result] of entries) checks[name] = result;
    const alerts = await this.alerts();
    const extra = {
      ...(alerts.length > 0 ? { alerts } : {}),
      ...(this.features.size > 0 ? { features: Object.fromEntries(this.features) } : {}),
    };
    const ok = entries.every(([, r]) => r.status === 'up');
    if (ok) {
      this.downSince = null;
      return { status: 'ok', service: this.service, checks, ...extra };
    }
    this.downSince ??= now;
    return { status: now - this.downSince < this.graceMs ? 'degraded' : 'error', service: this.service, checks, ...extra };
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface StatusResponse {
  status(code: number): { json(body: unknown): void };
}

@Controller('health')
export class HealthController {
  constructor(@Inject(HEALTH) private readonly health: HealthRegistry) {}

  /** Readiness: every dependency answers, or has not been failing for longer than the grace ("degraded"). */
  @Get()
  async ready(@Res() res: StatusResponse): Promise<void> {
    const report = await this.health.report();
    res.status(report.status === 'error' ? 503 : 200).json(report);
  }

  /** Liveness: the process answers. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
