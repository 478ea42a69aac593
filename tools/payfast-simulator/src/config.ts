import { z } from 'zod';
import { env, loadConfig } from '@digicard/config';

/** PayFast's public sandbox merchant: what the simulator accepts when nothing else is configured. */
export const SANDBOX_MERCHANT_ID = '10000100';
export const SANDBOX_MERCHANT_KEY = '46f0cd694581a';

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

export const ConfigSchema = z.object({
  HOST: env.host,
  PORT: env.port(8030),
  MERCHANT_ID: z.string().trim().regex(/^\d+$/, 'must be digits, e.g. 10000100').default(SANDBOX_MERCHANT_ID),
  MERCHANT_KEY: z.string().trim().min(1).default(SANDBOX_MERCHANT_KEY),
  /** When set, request, ITN and API signatures all include it (as on a PayFast account with a passphrase). */
  PASSPHRASE: optionalText,
  /** The simulator's own address in links and form actions; defaults to http://HOST:PORT. */
  PUBLIC_URL: optionalText.pipe(env.httpUrl.optional()),
});
export type Config = z.infer<typeof ConfigSchema>;

/** Reads the simulator's settings from the environment; throws a ConfigError naming every bad key. */
export function loadSimulatorConfig(source: NodeJS.ProcessEnv = process.env): Config {
  return loadConfig('payfast-simulator', ConfigSchema, source);
}
