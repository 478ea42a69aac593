import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from '@jest/globals';
import { APP_ENTRY, REPO_ROOT, type AppName } from '@digicard/testing';

function run(app: AppName, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [APP_ENTRY[app]], { cwd: REPO_ROOT, env: { PATH: process.env['PATH'] ?? '', ...env } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('every app checks its configuration before it starts', () => {
  const required: Array<[AppName, string[]]> = [
    ['identity', ['DATABASE_URL', 'NATS_URL']],
    ['profiles', ['DATABASE_URL', 'NATS_URL']],
    ['teams', ['DATABASE_URL', 'NATS_URL']],
    ['orders', ['DATABASE_URL', 'NATS_URL', 'PUBLIC_URL', 'REDIS_URL']],
    [
      'payments',
      [
        'DATABASE_URL',
        'NATS_URL',
        'PAYFAST_API_URL',
        'PAYFAST_MERCHANT_ID',
        'PAYFAST_MERCHANT_KEY',
        'PAYFAST_PROCESS_URL',
        'PAYFAST_SOURCE_RANGES',
        'PAYFAST_VALIDATE_URL',
        'PUBLIC_URL',
      ],
    ],
    ['notifications', ['DATABASE_URL', 'MAIL_FROM', 'NATS_URL', 'PUBLIC_URL', 'REDIS_URL', 'SALES_INBOX', 'SMTP_URL']],
    ['gateway', ['NATS_URL', 'PUBLIC_URL', 'REDIS_URL']],
  ];

  for (const [app, keys] of required) {
    it(`${app} names every missing key in one JSON error and exits 78`, async () => {
      const { code, output } = await run(app, {});
      assert.equal(code, 78, output);
      const line = JSON.parse(output.trim().split('\n')[0]!) as { level: string; service: string; problems: string[] };
      assert.equal(line.level, 'fatal');
      assert.equal(line.service, app);
      assert.deepEqual(line.problems.map((p) => p.split(':')[0]).sort(), keys);
    });
  }

  it('names bad values, not only missing ones', async () => {
    const { code, output } = await run('gateway', {
      NATS_URL: 'http://127.0.0.1:4222',
      REDIS_URL: 'redis://127.0.0.1:6379',
      PUBLIC_URL: 'localhost:8080',
      PORT: 'eighty',
      ENQUIRY_RATE_LIMIT: 'lots',
    });
    assert.equal(code, 78);
    const { problems } = JSON.parse(output.trim().split('\n')[0]!) as { problems: string[] };
    assert.deepEqual(problems.map((p) => p.split(':')[0]).sort(), ['ENQUIRY_RATE_LIMIT', 'NATS_URL', 'PORT', 'PUBLIC_URL']);
    assert.ok(problems.some((p) => p.startsWith('NATS_URL: must be a nats: or tls:// URL')));
  });
});
