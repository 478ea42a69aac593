import { z } from 'zod';
import { env, serviceEnvShape } from '@digicard/config';

export const ConfigSchema = z.object({
  ...serviceEnvShape,
  HEALTH_PORT: env.port(8101),
  /** argon2id parameters for new hashes; a stored hash made with others is upgraded at its owner's next sign-in. */
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(8_192).max(1_048_576).default(19_456),
  ARGON2_TIME_COST: z.coerce.number().int().min(1).max(20).default(2),
  ARGON2_PARALLELISM: z.coerce.number().int().min(1).max(16).default(1),
  /** How long a removed team rep's username and email stay held before anyone may take them again. */
  REMOVED_REP_GRACE_DAYS: z.coerce.number().min(0).max(3650).default(30),
});
export type Config = z.infer<typeof ConfigSchema>;
