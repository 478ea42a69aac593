import type { Database } from '@digicard/db';
import { DefaultJobOptions, EmailJobSchema, SECRET_TEMPLATES, jobIdFor, type EmailJob } from '@digicard/contracts';
import type { EventContext, QueueProducer } from '@digicard/server';
import { type MailLogRepository } from './mail-log.repository.js';

export { QueueUnavailableError } from '@digicard/server';

/** What queueing an email needs of an event handler's context: its transaction and its after-commit hook. */
export type EmailContext = Pick<EventContext, 'tx' | 'afterCommit'>;

/**
 * The `email` queue's producer: one job per email, its id derived from the cause. An add fails within the producer's
 * time-out when Redis is away (see `QueueProducer`); a late add is harmless (same job id). An event handler queues
 * after its transaction commits (`queueAfterCommit`), never inside it; the email is recorded as owed in the mail log
 * (`queued`, with the job) inside that transaction, so that it can be queued again from PostgreSQL if Redis loses it
 * (`requeueOwed`).
 */
export class EmailQueue {
  constructor(
    private readonly producer: QueueProducer<EmailJob>,
    private readonly db: Database,
    private readonly log: MailLogRepository,
    private readonly render: (job: EmailJob) => { to: string; subject: string },
  ) {}

  async enqueue(job: EmailJob): Promise<void> {
    const data = EmailJobSchema.parse(job);
    const secret = SECRET_TEMPLATES.has(data.template);
    await this.producer.add(data.template, data, {
      jobId: jobIdFor(data.template, data.sourceEventId),
      // A job whose link is a key to the account leaves Redis as soon as it is done; the mail log remembers it.
      ...(secret ? { removeOnComplete: true, removeOnFail: true } : {}),
    });
  }

  /**
   * From an event handler: the email is recorded as owed in the handler's own transaction (so it is owed exactly when
   * the event counts as handled), and queued once that transaction has committed. Should the add fail, the event is
   * redelivered; should Redis lose the job later, `requeueOwed` finds the row.
   */
  async queueAfterCommit({ tx, afterCommit }: EmailContext, job: EmailJob): Promise<void> {
    const data = EmailJobSchema.parse(job);
    // A secret link is never stored here: such an email lost with Redis is asked for again by its person.
    if (!SECRET_TEMPLATES.has(data.template)) {
      const { to, subject } = this.render(data);
      await this.log.recordOwed(tx, {
        jobId: jobIdFor(data.template, data.sourceEventId),
        template: data.template,
        recipient: to,
        subject,
        job: data,
      });
    }
    afterCommit(() => this.enqueue(data));
  }

  /**
   * Queues again every email owed for longer than `olderThan` (queued, or cut short while sending, or failed with
   * attempts left) whose job is kept: after Redis lost its queue. A job still in Redis makes the add a no-op (same
   * id). Returns how many adds were made; stops at the first that Redis refuses.
   */
  async requeueOwed(olderThan: Date, limit = 500): Promise<number> {
    const rows = await this.log.owedJobs(this.db, olderThan, DefaultJobOptions.attempts, limit);
    let queued = 0;
    for (const { job } of rows) {
      const parsed = EmailJobSchema.safeParse(job);
      if (!parsed.success) continue;
      await this.enqueue(parsed.data);
      queued += 1;
    }
    return queued;
  }
}
