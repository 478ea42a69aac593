import { z } from 'zod';
import { env, serviceEnvShape } from '@digicard/config';

export const ConfigSchema = z.object({
  ...serviceEnvShape,
  HEALTH_PORT: env.port(8103),
  /** How often the sweeper completes additions of reps that were cut short (teams or NATS died mid-way). */
  PENDING_REPS_SWEEP_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  /** A pending addition this old is looked at by the sweeper (the request itself has finished or given up by then). */
  PENDING_REP_AGE_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** A pending addition whose accounts identity never made is dropped when this old (identity may still be at it before). */
  PENDING_REP_ABANDON_MS: z.coerce.number().int().min(100).max(86_400_000).default(600_000),
  /** How long the SCIM audit list keeps a call (the leader's record of what their identity provider did), in days. */
  SCIM_AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** How often calls older than that are deleted. */
  SCIM_AUDIT_PRUNE_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
});
export type Config = z.infer<typeof ConfigSchema>;
