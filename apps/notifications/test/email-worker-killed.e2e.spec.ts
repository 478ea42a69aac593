import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { SMTPServer } from 'smtp-server';
import { DefaultJobOptions, QueueName, jobIdFor, type EmailJob } from '@digicard/contracts';
import { DEFAULTS, TestSystem, waitFor } from '@digicard/testing';

/**
 * The outside world of this test: an SMTP server that keeps every message it receives (as a relay that queued it
 * would) and, while `hold` is set, does not answer the end of DATA: the sender cannot know the message arrived.
 */
class HoldingSmtp {
  readonly received: Array<{ at: number; messageId: string | null }> = [];
  private readonly held: Array<() => void> = [];
  hold = false;
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, _session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const headers =
          Buffer.concat(chunks)
            .toString('utf8')
            .split(/\r?\n\r?\n/)[0] ?? '';
        this.received.push({ at: Date.now(), messageId: /^message-id:\s*(\S+)/im.exec(headers)?.[1] ?? null });
        if (this.hold) this.held.push(() => callback());
        else callback();
      });
    },
  });
  port = 0;

  /** Answers the held messages (a sender still waiting hears 250) and holds no more. */
  release(): void {
    this.hold = false;
    for (const answer of this.held.splice(0)) answer();
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(resolve));
  }
}

// Long enough that an attempt's SMTP time-outs (a quarter of the lease each) outlast the test's own steps on a loaded
// machine: the attempts here end because the test kills or overtakes them, never because SMTP took too long.
const LEASE_MS = 30_000;

describe('the email worker killed while SMTP holds its DATA reply', () => {
  const smtp = new HoldingSmtp();
  let system: TestSystem;
  let queue: Queue;

  beforeAll(async () => {
    await smtp.start();
    system = await TestSystem.start({
      apps: ['notifications'],
      env: {
        notifications: {
          SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          EMAIL_SEND_LEASE_MS: String(LEASE_MS),
          EMAIL_JOB_LOCK_MS: '1500',
          EMAIL_REQUEUE_INTERVAL_MS: '1000',
        },
      },
    });
    queue = new Queue(QueueName.Email, { connection: { url: DEFAULTS.redisUrl }, prefix: system.redisPrefix });
  });
  afterAll(async () => {
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await system?.stop();
    await smtp.stop();
  });

  const enquiryJob = (sourceEventId = randomUUID()): EmailJob => ({
    template: 'enquiry-received',
    sourceEventId,
    enquiry: {
      enquiryId: randomUUID(),
      kind: 'call-back',
      name: 'Thandi Nkosi',
      email: 'thandi@example.co.za',
      phone: '0821234567',
      message: null,
      company: null,
      teamSize: null,
      receivedAt: new Date().toISOString(),
    },
  });
  const enqueue = async (): Promise<string> => {
    const job = enquiryJob();
    const jobId = jobIdFor(job.template, job.sourceEventId);
    await queue.add(job.template, job, { ...DefaultJobOptions, jobId });
    return jobId;
  };
  const logRow = async (jobId: string) =>
    (
      await system.sql<{ status: string; attempts: number; smtp_message_id: string; lease_until: Date | null; job: unknown }>(
        'SELECT status, attempts, smtp_message_id, lease_until, job FROM notifications.mail_log WHERE job_id = $1',
        [jobId],
      )
    )[0];

  it('sends again only after the lease, with the same Message-ID, and records it sent once', async () => {
    smtp.hold = true;
    const jobId = await enqueue();
    const expectedId = `<${jobId}@digicard.test>`;
    await waitFor('the DATA to reach SMTP', () => Promise.resolve(smtp.received.length === 1), 30_000);
    const claimed = await logRow(jobId);
    assert.equal(claimed?.status, 'sending');
    assert.equal(claimed?.smtp_message_id, expectedId);
    assert.ok(claimed?.lease_until, 'the attempt holds a lease');

    await system.killApp('notifications'); // after SMTP has the email, before the worker hears so
    smtp.release();
    await system.startApp('notifications');

    await waitFor('the email to be recorded sent', async () => (await logRow(jobId))?.status === 'sent', 60_000, 200);
    await new Promise((r) => setTimeout(r, 2000)); // nothing more comes
    assert.equal(smtp.received.length, 2, 'the attempt cut short may have been delivered: it is sent again');
    assert.deepEqual(
      smtp.received.map((m) => m.messageId),
      [expectedId, expectedId],
    );
    assert.ok(smtp.received[1]!.at >= claimed.lease_until!.getTime(), 'no second send while the first attempt held the lease');
    const sent = await logRow(jobId);
    assert.equal(sent?.attempts, 2);
    assert.equal(sent?.lease_until, null);
    assert.equal(sent?.job, null, 'the payload is not kept once sent');
    assert.ok(system.logsOf('notifications').some((l) => l.includes('sending again with the same Message-ID')));
  });

  it('a job run twice at once (its lock lost) is sent once: the second run waits for the lease of the first', async () => {
    smtp.received.length = 0;
    smtp.hold = true;
    const jobId = await enqueue();
    await waitFor('the DATA to reach SMTP', () => Promise.resolve(smtp.received.length === 1), 30_000);
    // The job goes back to the queue while its first run still talks to SMTP, as when its lock is lost.
    const redis = new Redis(DEFAULTS.redisUrl);
    await redis.del(`${system.redisPrefix}:${QueueName.Email}:${jobId}:lock`);
    await redis.quit();
    await waitFor('the second run to wait for the lease', async () => (await queue.getJobState(jobId)) === 'delayed', 30_000, 100);
    smtp.release();
    await waitFor('the email to be recorded sent', async () => (await logRow(jobId))?.status === 'sent', 60_000, 200);
    // The postponed run comes back once the lease is over, finds the email sent and ends without sending.
    await waitFor('the postponed run to end', async () => (await queue.getJobState(jobId)) === 'completed', LEASE_MS + 30_000, 200);
    assert.equal(smtp.received.length, 1);
    assert.equal((await logRow(jobId))?.attempts, 1);
  });

  it('an email owed whose job Redis lost is queued again from the mail log and sent once', async () => {
    smtp.received.length = 0;
    const job = enquiryJob();
    const jobId = jobIdFor(job.template, job.sourceEventId);
    // What an event handler leaves once its transaction committed: the row, with the job; Redis then lost the job.
    await system.sql(
      `INSERT INTO notifications.mail_log (job_id, template, recipient, subject, status, attempts, job, updated_at)
       VALUES ($1, $2, 'sales@digicard.test', 'New call-back request', 'queued', 0, $3, now() - interval '1 minute')`,
      [jobId, job.template, JSON.stringify(job)],
    );
    assert.equal(await queue.getJob(jobId), undefined);
    await waitFor('the email to be recorded sent', async () => (await logRow(jobId))?.status === 'sent', 30_000, 200);
    await new Promise((r) => setTimeout(r, 2500)); // the requeue runs every second: a sent email is not queued again
    assert.deepEqual(
      smtp.received.map((m) => m.messageId),
      [`<${jobId}@digicard.test>`],
    );
    assert.equal((await logRow(jobId))?.job, null);
    assert.ok(system.logsOf('notifications').some((l) => l.includes('emails owed queued again from the mail log')));
  });
});
