import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Events, deadLetterStreamFor, streamFor } from '@digicard/contracts';
import { connectNats, jetStreamHandles, type NatsConnection } from '@digicard/messaging';
import { InProcessService, provisionStreamsAt } from '@digicard/service-testing';
import { waitFor } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { identityService } from '../src/service.js';

/**
 * A service never declares its streams (the one-shot step nats-streams does, as the NATS user `provisioner`): started
 * before that step ran, identity says what it waits for (a log line, its readiness), keeps its events in the outbox,
 * and carries on by itself once the streams are there.
 */
describe('a service started before the stream provisioner waits for its streams', () => {
  const logged: string[] = [];
  const sink = globalThis as { __digicardTestLog?: { write(line: string): void } };
  const testLog = sink.__digicardTestLog;
  let service: InProcessService<Config>;
  let nc: NatsConnection;
  const streams = [streamFor('identity').name, deadLetterStreamFor('identity').name];
  const streamNames = async () => {
    const names: string[] = [];
    for await (const name of (await jetStreamHandles(nc)).jsm.streams.names()) names.push(name);
    return names.sort();
  };

  beforeAll(async () => {
    sink.__digicardTestLog = {
      write(line: string) {
        logged.push(line);
        (testLog ?? process.stdout).write(line);
      },
    };
    service = await InProcessService.start(identityService, { LOG_LEVEL: 'info' }, { provisionStreams: false });
    nc = await connectNats(service.natsUrl, 'stream-provisioning-test');
  });
  afterAll(async () => {
    sink.__digicardTestLog = testLog;
    await nc?.close();
    await service?.stop();
  });

  it('declares none itself, says which it waits for, and keeps its events in the outbox', async () => {
    assert.deepEqual(await streamNames(), [], 'the service declared no stream');
    const report = await service.running.ctx.health.report();
    assert.equal(report.checks['streams']?.status, 'down');
    assert.equal(
      (report.checks['streams'] as { error?: string }).error,
      'EVENTS_IDENTITY, DEADLETTER_IDENTITY not declared yet: the stream provisioner (nats-streams) has not run',
    );
    await waitFor('the log line', () =>
      Promise.resolve(
        logged.some((l) =>
          l.includes(
            'waiting for the stream provisioner (nats-streams) to declare EVENTS_IDENTITY, DEADLETTER_IDENTITY: events stay in the outbox until then',
          ),
        ),
      ),
    );
    const id = randomUUID();
    const envelope = { id, type: Events.userChanged.subject, occurredAt: new Date().toISOString(), data: {} };
    await service.sql(`INSERT INTO identity.outbox (id, subject, payload) VALUES ($1, $2, $3)`, [id, Events.userChanged.subject, envelope]);
    // The relay ticks every second: three ticks later the event is still waiting, and no stream appeared.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const [row] = await service.sql<{ sent_at: Date | null; attempts: number }>(
      `SELECT sent_at, attempts FROM identity.outbox WHERE id = $1`,
      [id],
    );
    assert.equal(row?.sent_at, null);
    assert.equal(row?.attempts, 0, 'not even tried');
    assert.deepEqual(await streamNames(), []);
  });

  it('relays what waited and reports ready once the provisioner has declared the streams', async () => {
    await provisionStreamsAt(service.natsUrl);
    await waitFor('the outbox relayed', async () => {
      const rows = await service.sql(`SELECT 1 FROM identity.outbox WHERE sent_at IS NULL`);
      return rows.length === 0;
    });
    const { jsm } = await jetStreamHandles(nc);
    assert.equal((await jsm.streams.info(streamFor('identity').name)).state.messages, 1);
    const report = await service.running.ctx.health.report();
    assert.equal(report.checks['streams']?.status, 'up');
    assert.ok(logged.some((l) => l.includes('streams declared: carrying on')));
    for (const name of streams) assert.ok((await streamNames()).includes(name));
  });
});
