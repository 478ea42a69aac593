import { z } from 'zod';
import type { PageRoute } from './web-routes.js';

export const HealthCheckResultSchema = z.object({
  status: z.enum(['up', 'down']),
  error: z.string().optional(),
  latencyMs: z.number().optional(),
});

/** An optional feature: on, or off and why (which settings are missing). */
export const FeatureStateSchema = z.object({ status: z.enum(['on', 'off']), reason: z.string().optional() });
export type FeatureState = z.infer<typeof FeatureStateSchema>;

export const HealthReportSchema = z
  .object({
    /** `degraded`: something is down, but not for long enough to take the gateway out of rotation (readiness). */
    status: z.enum(['ok', 'degraded', 'error']),
    service: z.string(),
    checks: z.record(z.string(), HealthCheckResultSchema),
    /** What needs an operator without making the replica unready (events in the dead-letter stream). */
    alerts: z.array(z.string()).optional(),
    /**
     * Optional features the deployment turns on by configuration, and why one is off (Apple Wallet without its
     * certificates): neither state makes the replica unready.
     */
    features: z.record(z.string(), FeatureStateSchema).optional(),
  })
  .meta({ id: 'HealthReport' });
export type HealthReport = z.infer<typeof HealthReportSchema>;

/**
 * What the gateway's public port says of health (`/api/health`, `/health`, `/health/live`): up or down, nothing
 * more. The reports with every check (which name dependencies and their errors) are served on the gateway's
 * internal port only (`HEALTH_PORT`, `InternalHealthPaths`), which the orchestrator's probes use.
 */
export const PublicHealthSchema = z.object({ status: z.enum(['up', 'down']) }).meta({ id: 'PublicHealth' });
export type PublicHealth = z.infer<typeof PublicHealthSchema>;

/** The gateway's internal listener (`HEALTH_PORT`, never exposed by a Service's public port or the ingress). */
export const InternalHealthPaths = {
  /** Readiness with its checks (NATS, Redis): 200 ok or degraded, 503 error. */
  ready: '/health',
  /** Liveness: the process answers. */
  live: '/health/live',
  /** The whole system's report: the gateway's own checks and every service's, asked over NATS. */
  system: '/health/system',
} as const;

/**
 * The gateway's probes outside `/api` (the whole system's report is `HttpRoutes.health`, `/api/health`): readiness
 * covers its own dependencies only, so that a service being down never takes the gateway out of rotation.
 */
export const OperationsRoutes = {
  ready: {
    method: 'get',
    path: '/health',
    access: 'public',
    description: "Readiness: the gateway's own NATS and Redis, up or down only (the checks: internal port)",
  },
  live: { method: 'get', path: '/health/live', access: 'public', description: 'Liveness: the process answers' },
} as const satisfies Record<string, PageRoute>;
