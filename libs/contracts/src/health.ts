import { z } from 'zod';

export const HealthCheckResultSchema = z.object({
  status: z.enum(['up', 'down']),
  error: z.string().optional(),
  latencyMs: z.number().optional(),
});

export const HealthReportSchema = z
  .object({
    status: z.enum(['ok', 'error']),
    service: z.string(),
    checks: z.record(z.string(), HealthCheckResultSchema),
  })
  .meta({ id: 'HealthReport' });
export type HealthReport = z.infer<typeof HealthReportSchema>;
