import { z } from 'zod';
import type { PageRoute } from './web-routes.js';

export const HealthCheckResultSchema = z.object({
  status: z.enum(['up', 'down']),
  error: z.string().optional(),
  latencyMs: z.number().optional(),
});

export const HealthReportSchema = z
  .object({
    /** `degraded`: something is down, but not for long enough to take the gateway out of rotation (readiness). */
    status: z.enum(['ok', 'degraded', 'error']),
    service: z.string(),
    checks: z.record(z.string(), HealthCheckResultSchema),
    /** What needs an operator without making the replica unready (events in the dead-letter stream). */
    alerts: z.array(z.string()).optional(),
  })
  .meta({ id: 'HealthReport' });
export type HealthReport = z.infer<typeof HealthReportSchema>;

/**
 * The gateway's probes outside `/api` (the whole system's report is `HttpRoutes.health`, `/api/health`): readiness
 * covers its own dependencies only, so that a service being down never takes the gateway out of rotation.
 */
export const OperationsRoutes = {
  ready: { method: 'get', path: '/health', access: 'public', description: "Readiness: the gateway's own NATS and Redis" },
  live: { method: 'get', path: '/health/live', access: 'public', description: 'Liveness: the process answers' },
} as const satisfies Record<string, PageRoute>;
