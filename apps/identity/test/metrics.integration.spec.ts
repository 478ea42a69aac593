import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Rpc } from '@digicard/contracts';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { identityService } from '../src/service.js';

// The identity service in this process, on real PostgreSQL and NATS: its `/metrics` on the health port, read as
// Prometheus would, before and after requests over NATS.

let service: InProcessService<Config>;

beforeAll(async () => {
  service = await InProcessService.start(identityService);
});
afterAll(() => service?.stop());

async function scrape(): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(`http://127.0.0.1:${service.running.healthPort}/metrics`);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** The value of one sample (`name{labels}`), or 0 when it is not there yet. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.indexOf('}'));
    const parts = inside.split(',');
    if (wanted.every((w) => parts.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('metrics on the health port', () => {
  it('counts NATS requests by subject and outcome, with their duration', async () => {
    const subject = Rpc.register.subject;
    const before = (await scrape()).text;
    const signUp = { username: 'mpho', firstName: 'Mpho', lastName: 'Dlamini', email: 'mpho@example.test', password: 'kudu-braai-2026' };
    expect((await service.call(Rpc.register, signUp)).ok).toBe(true);
    const refused = await service.call(Rpc.register, { ...signUp, email: 'not an email' });
    expect(refused.ok).toBe(false);

    const after = await scrape();
    expect(after.status).toBe(200);
    expect(after.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const count = (text: string, outcome: string) => sample(text, 'digicard_rpc_handled_total', { subject, outcome });
    expect(count(after.text, 'ok') - count(before, 'ok')).toBe(1);
    expect(count(after.text, 'rejected') - count(before, 'rejected')).toBe(1);
    expect(sample(after.text, 'digicard_rpc_handled_duration_seconds_count', { subject })).toBeGreaterThanOrEqual(2);
  });

  it('reports the outbox: rows waiting and the age of the oldest', async () => {
    const { text } = await scrape();
    expect(text).toMatch(/^digicard_outbox_pending\{service="identity"\} \d+$/m);
    expect(text).toMatch(/^digicard_outbox_oldest_age_seconds\{service="identity"\} [\d.e+-]+$/m);
    // The relay stopped, an event left unsent for 90 s: what the alert on the outbox's age watches for.
    await service.running.ctx.relay?.stop();
    await service.sql(`UPDATE identity.outbox SET sent_at = NULL, created_at = now() - interval '90 seconds'`);
    const stuck = (await scrape()).text;
    expect(sample(stuck, 'digicard_outbox_pending', { service: 'identity' })).toBeGreaterThanOrEqual(1);
    expect(sample(stuck, 'digicard_outbox_oldest_age_seconds', { service: 'identity' })).toBeGreaterThanOrEqual(90);
  });

  it('names no account, email or token in any label', async () => {
    const { text } = await scrape();
    expect(text).not.toMatch(/mpho/);
  });
});
