import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { z } from 'zod';
import { ErrorCode, type RequestMeta, type RpcDefinition } from '@digicard/contracts';
import { authorize } from '../src/handles.js';
import { HealthRegistry } from '../src/health.js';
import { hashEmailToken, newEmailToken } from '../src/email-token.js';
import { ServiceError, parseRpc } from '../src/rpc.js';
import { escapeVcard, foldLine } from '../src/vcard.js';

// The framework every service stands on, without a server: the access check, the contract check of a request, the
// health report's grace period and time-outs, email tokens and vCard lines.

const ACCOUNT_ID = '7c0a4a53-2f8a-4b7e-9a52-1f0d1e0c8a11';
const meta = (over: Partial<RequestMeta> = {}): RequestMeta => ({ requestId: 'r-1', userId: null, role: null, ip: '127.0.0.1', ...over });

/** What a call refused with, as the gateway would read it. */
function refusal(call: () => unknown): { statusCode: number; code: string; fieldErrors?: Record<string, string[]> } {
  try {
    call();
  } catch (error) {
    assert.ok(error instanceof ServiceError, `not a ServiceError: ${String(error)}`);
    return error.body;
  }
  assert.fail('the call was not refused');
}

describe('authorize', () => {
  it('lets anyone make a public or service call', () => {
    authorize('public', meta());
    authorize('service', meta());
  });

  it('refuses a visitor an account call with 401, and lets any signed-in account make it', () => {
    assert.deepEqual(refusal(() => authorize('account', meta())).statusCode, 401);
    assert.equal(refusal(() => authorize('account', meta())).code, ErrorCode.Unauthorized);
    authorize('account', meta({ userId: ACCOUNT_ID, role: 'user' }));
  });

  it('refuses a role the call does not list with 403, and lets a listed one through', () => {
    const refused = refusal(() => authorize(['staff'], meta({ userId: ACCOUNT_ID, role: 'user' })));
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.code, ErrorCode.Forbidden);
    assert.equal(refusal(() => authorize(['staff'], meta({ userId: ACCOUNT_ID, role: null }))).statusCode, 403);
    authorize(['staff', 'print'], meta({ userId: ACCOUNT_ID, role: 'print' }));
  });
});

describe('parseRpc', () => {
  const def: RpcDefinition<z.ZodObject<{ name: z.ZodString }>, z.ZodObject<{ ok: z.ZodBoolean }>> = {
    subject: 'identity.test.check',
    owner: 'identity',
    access: 'public',
    request: z.object({ name: z.string().min(2) }),
    response: z.object({ ok: z.boolean() }),
  };

  it('gives the checked body and meta of a request its contract accepts', () => {
    const parsed = parseRpc(def, { meta: meta(), body: { name: 'Thandi' } });
    assert.deepEqual(parsed, { meta: meta(), body: { name: 'Thandi' } });
  });

  it('answers a bad body with 400 and the field that is wrong, never handling it', () => {
    const refused = refusal(() => parseRpc(def, { meta: meta(), body: { name: 'T' } }));
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.code, ErrorCode.ValidationFailed);
    assert.ok(refused.fieldErrors?.['body.name'] ?? refused.fieldErrors?.['name'], JSON.stringify(refused.fieldErrors));
  });

  it('refuses a request without its meta', () => {
    assert.equal(refusal(() => parseRpc(def, { body: { name: 'Thandi' } })).statusCode, 400);
  });
});

describe('ServiceError', () => {
  it('carries the status and code the gateway answers with', () => {
    assert.deepEqual(
      [ServiceError.notFound('x').body.statusCode, ServiceError.forbidden('x').body.statusCode, ServiceError.unavailable().body.statusCode],
      [404, 403, 503],
    );
    assert.equal(ServiceError.unavailable().body.code, ErrorCode.ServiceUnavailable);
  });
});

describe('HealthRegistry', () => {
  it('is ok while every check answers, with each latency', async () => {
    const report = await new HealthRegistry('identity').add('db', () => Promise.resolve()).report();
    assert.equal(report.status, 'ok');
    assert.equal(report.service, 'identity');
    assert.equal(report.checks['db']?.status, 'up');
  });

  it('reports a failing check degraded within the grace period, then error, and ok once it is back', async () => {
    let up = false;
    const health = new HealthRegistry('orders', { graceMs: 10_000 }).add('db', () =>
      up ? Promise.resolve() : Promise.reject(new Error('connection refused')),
    );
    const first = await health.report(1_000);
    assert.equal(first.status, 'degraded');
    assert.deepEqual(first.checks['db'], { status: 'down', error: 'connection refused' });
    assert.equal((await health.report(10_999)).status, 'degraded');
    assert.equal((await health.report(11_000)).status, 'error');
    up = true;
    assert.equal((await health.report(12_000)).status, 'ok');
    up = false;
    // A new spell of failures starts its own grace period.
    assert.equal((await health.report(13_000)).status, 'degraded');
  });

  it('reports a check that does not answer in time as down', async () => {
    const report = await new HealthRegistry('profiles', { timeoutMs: 20 }).add('nats', () => new Promise(() => {})).report();
    assert.equal(report.status, 'error');
    assert.deepEqual(report.checks['nats'], { status: 'down', error: 'no answer within 20 ms' });
  });

  it('lists alerts without making the replica unready, and leaves out alerts that fail', async () => {
    const report = await new HealthRegistry('gateway')
      .add('redis', () => Promise.resolve())
      .alert('consumer', () => Promise.resolve('3 pending'))
      .alert('quiet', () => Promise.resolve(null))
      .alert('broken', () => Promise.reject(new Error('no')))
      .report();
    assert.equal(report.status, 'ok');
    assert.deepEqual(report.alerts, ['consumer: 3 pending']);
  });

  it('reports optional features on, or off and why, without making the replica unready', async () => {
    const report = await new HealthRegistry('profiles')
      .add('db', () => Promise.resolve())
      .feature('appleWallet', { status: 'off', reason: 'APPLE_PASS_CERT not set' })
      .report();
    assert.equal(report.status, 'ok');
    assert.deepEqual(report.features, { appleWallet: { status: 'off', reason: 'APPLE_PASS_CERT not set' } });
    assert.equal((await new HealthRegistry('teams').report()).features, undefined, 'no features, no field');
  });
});

describe('email tokens', () => {
  it('are 128 random bits in base64url, stored only as their SHA-256', () => {
    const a = newEmailToken();
    const b = newEmailToken();
    assert.match(a.token, /^[A-Za-z0-9_-]{22}$/);
    assert.notEqual(a.token, b.token);
    assert.equal(a.tokenHash, createHash('sha256').update(a.token).digest('hex'));
    assert.equal(hashEmailToken(a.token), a.tokenHash);
  });
});

describe('vCard lines', () => {
  it('escape backslashes, line breaks, commas and semicolons', () => {
    assert.equal(escapeVcard('a\\b\r\nc,d;e\nf'), 'a\\\\b\\nc\\,d\\;e\\nf');
  });

  it('fold at 75 octets, never inside a UTF-8 character', () => {
    assert.equal(foldLine('short'), 'short');
    const folded = foldLine(`NOTE:${'é'.repeat(60)}`);
    const lines = folded.split('\r\n ');
    assert.ok(lines.length > 1);
    assert.ok(Buffer.byteLength(lines[0]!) <= 75);
    for (const line of lines.slice(1)) assert.ok(Buffer.byteLength(line) <= 74);
    assert.equal(lines.join(''), `NOTE:${'é'.repeat(60)}`);
  });
});
