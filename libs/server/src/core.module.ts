import { Controller, Get, Global, Module, Res, type DynamicModule, type Provider } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { healthSubject, type HealthReport, type ServiceName } from '@digicard/contracts';
import type { ServiceContext } from './context.js';
import { HealthController, type HealthRegistry } from './health.js';
import { rpcClientProvider } from './rpc-client.js';
import { metricsText } from './metrics.js';

/** Prometheus scrapes `/metrics` on the health port (the only port a service listens on besides NATS). */
@Controller('metrics')
class MetricsController {
  @Get()
  async metrics(@Res() res: { setHeader(name: string, value: string): void; send(body: string): void }): Promise<void> {
    const { contentType, body } = await metricsText();
    res.setHeader('content-type', contentType);
    res.send(body);
  }
}
import { CONFIG, DATABASE, HEALTH, JETSTREAM, LOGGER, NATS_CONNECTION, OUTBOX_RELAY, PG_POOL } from './tokens.js';

/** Answers `<service>.health.check` over NATS, so the gateway can report every service's health. */
function healthRpcController(service: ServiceName, health: HealthRegistry) {
  @Controller()
  class HealthRpcController {
    @MessagePattern(healthSubject(service))
    check(): Promise<HealthReport> {
      return health.report();
    }
  }
  return HealthRpcController;
}

/** Hands the resources a service opened at start-up to its feature modules. */
@Global()
@Module({})
export class CoreModule {
  static register(ctx: ServiceContext<{ NATS_URL: string; RPC_TIMEOUT_MS?: number }>): DynamicModule {
    const providers: Provider[] = [
      { provide: CONFIG, useValue: ctx.config },
      { provide: LOGGER, useValue: ctx.logger },
      { provide: PG_POOL, useValue: ctx.pool },
      { provide: DATABASE, useValue: ctx.db },
      { provide: NATS_CONNECTION, useValue: ctx.nc },
      { provide: JETSTREAM, useValue: { js: ctx.js, jsm: ctx.jsm } },
      { provide: OUTBOX_RELAY, useValue: ctx.relay },
      { provide: HEALTH, useValue: ctx.health },
      rpcClientProvider(ctx),
    ];
    return {
      module: CoreModule,
      global: true,
      providers,
      exports: providers,
      controllers: [HealthController, MetricsController, healthRpcController(ctx.service, ctx.health)],
    };
  }
}
