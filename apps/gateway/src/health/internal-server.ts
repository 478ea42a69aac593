import { createServer, type Server, type ServerResponse } from 'node:http';
import { InternalHealthPaths, type HealthReport } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { metricsText } from '@digicard/server';
import type { GatewayHealth } from './gateway-health.js';

/**
 * The gateway's internal listener (`HEALTH_PORT`): the health reports with every check, which name the dependencies
 * and their errors, for the probes of the orchestrator and for operators; the public port says up or down only.
 * Plain `node:http`, so it answers even while Nest's routes are busy; GET only. Prometheus scrapes `/metrics` here.
 */
export function startInternalHealthServer(health: GatewayHealth, port: number, host: string, logger: Logger): Promise<Server> {
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const report = (r: HealthReport) => [r.status === 'error' ? 503 : 200, r] as const;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { status: 'error' });
    if (path === '/metrics') {
      metricsText().then(
        ({ contentType, body }) => {
          res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
          res.end(body);
        },
        (error: unknown) => {
          logger.warn({ err: error }, 'metrics failed');
          send(res, 503, { status: 'error' });
        },
      );
      return;
    }
    const answer =
      path === InternalHealthPaths.live
        ? Promise.resolve([200, { status: 'ok' }] as const)
        : path === InternalHealthPaths.ready
          ? health.ready().then(report)
          : path === InternalHealthPaths.system
            ? health.system().then(report)
            : Promise.resolve([404, { status: 'error' }] as const);
    answer
      .then(([status, body]) => send(res, status, body))
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'health report failed');
        send(res, 503, { status: 'error' });
      });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
