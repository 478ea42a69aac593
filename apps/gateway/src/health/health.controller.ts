import { Controller, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HttpRoutes, OperationsRoutes, type HealthReport } from '@digicard/contracts';
import { Route } from '../http/route.js';
import { GatewayHealth } from './gateway-health.js';

/** 200 when every check is up (or the gateway is only degraded), 503 otherwise, with the report either way. */
async function send(res: Response, report: Promise<HealthReport>): Promise<void> {
  const answer = await report;
  res.status(answer.status === 'error' ? 503 : 200).json(answer);
}

@Controller()
export class GatewayHealthController {
  constructor(@Inject(GatewayHealth) private readonly health: GatewayHealth) {}

  @Route(OperationsRoutes.ready)
  ready(@Res() res: Response): Promise<void> {
    return send(res, this.health.ready());
  }

  @Route(OperationsRoutes.live)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Route(HttpRoutes.health)
  system(@Res() res: Response): Promise<void> {
    return send(res, this.health.system());
  }
}
