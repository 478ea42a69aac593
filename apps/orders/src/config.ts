import { z } from 'zod';
import { env, redisEnvShape, serviceEnvShape } from '@digicard/config';

export const ConfigSchema = z.object({
  ...serviceEnvShape,
  HEALTH_PORT: env.port(8104),
  /** The `proof-render` queue (BullMQ) lives here. */
  ...redisEnvShape,
  QUEUE_PREFIX: env.queuePrefix,
  /** The public site: each card's NFC chip and QR code open `${PUBLIC_URL}/c/{serial}`. */
  PUBLIC_URL: env.httpUrl,
  /** The first retry's delay; each next one doubles it (ProofRenderJobOptions keeps the number of attempts). */
  PROOF_RENDER_BACKOFF_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
  PROOF_RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(1),
  /** A profile save renders its owner's proofs after this wait, so a burst of saves is one render per order. */
  PROOF_RERENDER_DEBOUNCE_MS: z.coerce.number().int().min(0).max(600_000).default(2000),
  /** How often proofs marked `rendering` with no job (an add lost while Redis was away) are queued again. */
  PROOF_REQUEUE_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** How long a queue add may take before Redis counts as away (the caller tries again later). */
  QUEUE_ADD_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
});
export type Config = z.infer<typeof ConfigSchema>;
