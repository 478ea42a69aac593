import { EmailJobSchema, SECRET_TEMPLATES, jobIdFor, type EmailJob } from '@digicard/contracts';
import type { EventContext, QueueProducer } from '@digicard/server';

export { QueueUnavailableError } from '@digicard/server';

/**
 * The `email` queue's producer: one job per email, its id derived from the cause. An add fails within the producer's
 * time-out when Redis is away (see `QueueProducer`); a late add is harmless (same job id). An event handler queues
 * after its transaction commits (`queueAfterCommit`), never inside it.
 */
export class EmailQueue {
  constructor(private readonly producer: QueueProducer<EmailJob>) {}

  async enqueue(job: EmailJob): Promise<void> {
    const data = EmailJobSchema.parse(job);
    const secret = SECRET_TEMPLATES.has(data.template);
    await this.producer.add(data.template, data, {
      jobId: jobIdFor(data.template, data.sourceEventId),
      // A job whose link is a key to the account leaves Redis as soon as it is done; the mail log remembers it.
      ...(secret ? { removeOnComplete: true, removeOnFail: true } : {}),
    });
  }

  /** From an event handler: the job is checked now and queued once the handler's transaction has committed. */
  queueAfterCommit(afterCommit: EventContext['afterCommit'], job: EmailJob): void {
    const data = EmailJobSchema.parse(job);
    afterCommit(() => this.enqueue(data));
  }
}
