import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '@digicard/config';
import { ConfigSchema } from '../src/config.js';

// Issue 28 item 13: the PayFast settings that are traps in production (no passphrase, plain HTTP to PayFast, the
// public sandbox merchant and our development passphrase) refuse to start, naming the key; a sandbox run may use them.

const live = {
  NATS_URL: 'nats://127.0.0.1:4222',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/digicard',
  PUBLIC_URL: 'https://cards.example.co.za',
  PAYFAST_PROCESS_URL: 'https://www.payfast.co.za/eng/process',
  PAYFAST_VALIDATE_URL: 'https://www.payfast.co.za/eng/query/validate',
  PAYFAST_API_URL: 'https://api.payfast.co.za',
  PAYFAST_MERCHANT_ID: '12345678',
  PAYFAST_MERCHANT_KEY: 'a-live-key',
  PAYFAST_PASSPHRASE: 'our own long passphrase',
  PAYFAST_SOURCE_RANGES: '197.97.145.144/28',
};
/** The development defaults of docker-compose and npm start. */
const development = {
  PAYFAST_PROCESS_URL: 'http://localhost:8030/eng/process',
  PAYFAST_VALIDATE_URL: 'http://payfast:8030/eng/query/validate',
  PAYFAST_API_URL: 'http://payfast:8030',
  PAYFAST_MERCHANT_ID: '10000100',
  PAYFAST_MERCHANT_KEY: '46f0cd694581a',
  PAYFAST_PASSPHRASE: 'digicard-development-passphrase',
};

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig('payments', ConfigSchema, env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
};

describe('payments configuration in production', () => {
  it('starts with a live merchant over https with a passphrase, and production is the default', () => {
    expect(problemsOf({ ...live, NODE_ENV: 'production' })).toEqual([]);
    expect(loadConfig('payments', ConfigSchema, live).NODE_ENV).toBe('production');
  });

  it('refuses no passphrase, http: PayFast URLs and the development merchant, naming each key', () => {
    expect(problemsOf({ ...live, PAYFAST_PASSPHRASE: '' })).toEqual([
      expect.stringMatching(/^PAYFAST_PASSPHRASE: required when NODE_ENV is production/),
    ]);
    const problems = problemsOf({ ...live, ...development, NODE_ENV: 'production' });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'PAYFAST_API_URL',
      'PAYFAST_MERCHANT_ID',
      'PAYFAST_MERCHANT_KEY',
      'PAYFAST_PASSPHRASE',
      'PAYFAST_PROCESS_URL',
      'PAYFAST_VALIDATE_URL',
    ]);
  });

  it('lets a sandbox run (PAYFAST_SANDBOX=true) and development and tests use the development settings, never without a passphrase in production', () => {
    expect(problemsOf({ ...live, ...development, NODE_ENV: 'production', PAYFAST_SANDBOX: 'true' })).toEqual([]);
    expect(problemsOf({ ...live, ...development, NODE_ENV: 'production', PAYFAST_SANDBOX: 'true', PAYFAST_PASSPHRASE: '' })).toHaveLength(
      1,
    );
    expect(problemsOf({ ...live, ...development, NODE_ENV: 'development', PAYFAST_PASSPHRASE: '' })).toEqual([]);
    expect(problemsOf({ ...live, ...development, NODE_ENV: 'test' })).toEqual([]);
  });

  it('exits 78 at start, naming the key, as every bad configuration does', () => {
    const main = fileURLToPath(new URL('../dist/src/main.js', import.meta.url));
    const run = spawnSync(process.execPath, [main], {
      env: { PATH: process.env['PATH'] ?? '', ...live, PAYFAST_PASSPHRASE: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(78);
    expect(run.stderr).toContain('PAYFAST_PASSPHRASE: required when NODE_ENV is production');
  });
});
