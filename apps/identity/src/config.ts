import { z } from 'zod';
import { env, serviceEnvShape } from '@digicard/config';

export const ConfigSchema = z.object({ ...serviceEnvShape, HEALTH_PORT: env.port(8101),
  /** How long a removed team rep's username and email stay held before anyone may take them again. */
  REMOVED_REP_GRACE_DAYS: z.coerce.number().min(0).max(3650).default(30),
});
export type Config = z.infer<typeof ConfigSchema>;
