import { Controller, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HttpRoutes, OperationsRoutes, type HealthReport, type PublicHealth } from '@digicard/contracts';
import { Route } from '../http/route.js';
import { GatewayHealth } from './gateway-health.js';

/**
 * The public port's health: up (200: every check up, or the gateway only degraded) or down (503), and nothing else:
 * which dependency fails, and how, is for the internal port (`internal-server.ts`), never for the internet.
 */
async function send(res: Response, report: Promise<HealthReport>): Promise<void> {
  const answer = await report;
  const down = answer.status === 'error';
  const body: PublicHealth = { status: down ? 'down' : 'up' };
  res
    .status(down ? 503 : 200)
    .set('Cache-Control', 'no-store')
    .json(body);
}

@Controller()
export class GatewayHealthController {
  constructor(@Inject(GatewayHealth) private readonly health: GatewayHealth) {}

  @Route(OperationsRoutes.ready)
  ready(@Res() res: Response): Promise<void> {
    return send(res, this.health.ready());
  }

  @Route(OperationsRoutes.live)
  live(): PublicHealth {
    return { status: 'up' };
  }

  @Route(HttpRoutes.health)
  system(@Res() res: Response): Promise<void> {
    return send(res, this.health.system());
  }
}
