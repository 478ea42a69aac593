import { z } from 'zod';
import { env, serviceEnvShape } from '@digicard/config';

export const ConfigSchema = z.object({ ...serviceEnvShape, HEALTH_PORT: env.port(8101) });
export type Config = z.infer<typeof ConfigSchema>;
