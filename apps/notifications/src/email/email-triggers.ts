import type { z } from 'zod';
import { Events, Rpc, type EmailJob, type ServiceName, type EventDefinition, type RequestMeta } from '@digicard/contracts';
import { consumeEventOnce, type RpcClient, type ServiceContext } from '@digicard/server';
import type { Config } from '../config.js';
import { processedMessages } from '../db/schema.js';
import type { EmailQueue } from './email.queue.js';

/** Turns an event into the email it calls for, or null when none is due (say, the account is already verified). */
type Trigger<T extends z.ZodType> = {
  event: EventDefinition<T>;
  toJob(event: { id: string; data: z.output<T> }, deps: { rpc: RpcClient; config: Config }): Promise<EmailJob | null>;
};

const meta = (eventId: string): RequestMeta => ({ requestId: `event-${eventId}`, userId: null, role: null, ip: null });

const verificationEmail = async (
  envelope: { id: string; data: { accountId: string } },
  { rpc, config }: { rpc: RpcClient; config: Config },
): Promise<EmailJob | null> => {
  const issued = await rpc.call(Rpc.issueVerificationToken, { accountId: envelope.data.accountId }, meta(envelope.id));
  if (!issued) return null;
  return {
    template: 'verify-email',
    sourceEventId: envelope.id,
    to: issued.email,
    firstName: issued.firstName,
    link: `${config.PUBLIC_URL}/verify-email?token=${encodeURIComponent(issued.token)}`,
    expiresAt: issued.expiresAt,
  };
};

/** Every event that sends an email, and what it sends. */
const triggers = [
  {
    event: Events.leadCaptured,
    toJob: (envelope) =>
      Promise.resolve({
        template: 'lead-captured',
        sourceEventId: envelope.id,
        to: envelope.data.ownerEmail,
        ownerFirstName: envelope.data.ownerFirstName,
        lead: {
          kind: envelope.data.kind,
          firstName: envelope.data.firstName,
          lastName: envelope.data.lastName,
          email: envelope.data.email,
          phone: envelope.data.phone,
          message: envelope.data.message,
          createdAt: envelope.data.createdAt,
        },
      }),
  } satisfies Trigger<typeof Events.leadCaptured.data>,
  {
    event: Events.enquiryReceived,
    toJob: (envelope) => Promise.resolve({ template: 'enquiry-received', sourceEventId: envelope.id, enquiry: envelope.data }),
  } satisfies Trigger<typeof Events.enquiryReceived.data>,
  { event: Events.userRegistered, toJob: verificationEmail } satisfies Trigger<typeof Events.userRegistered.data>,
  { event: Events.verificationRequested, toJob: verificationEmail } satisfies Trigger<typeof Events.verificationRequested.data>,
  {
    event: Events.passwordResetRequested,
    toJob: async (envelope, { rpc, config }) => {
      const issued = await rpc.call(Rpc.issuePasswordResetToken, { accountId: envelope.data.accountId }, meta(envelope.id));
      if (!issued) return null;
      return {
        template: 'reset-password',
        sourceEventId: envelope.id,
        to: issued.email,
        firstName: issued.firstName,
        link: `${config.PUBLIC_URL}/reset-password?token=${encodeURIComponent(issued.token)}`,
        expiresAt: issued.expiresAt,
      };
    },
  } satisfies Trigger<typeof Events.passwordResetRequested.data>,
];

/** One durable consumer per triggering event; each event enqueues its email once (the job id derives from it). */
export async function startEmailTriggers(ctx: ServiceContext<Config>, emails: EmailQueue, rpc: RpcClient): Promise<void> {
  for (const trigger of triggers as Array<Trigger<z.ZodType>>) {
    await consumeEventOnce(ctx, processedMessages, trigger.event, async (_tx, data, eventId) => {
      const job = await trigger.toJob({ id: eventId, data }, { rpc, config: ctx.config });
      if (job) await emails.enqueue(job);
    });
  }
}

export const triggeringStreams = (): ServiceName[] => [...new Set(triggers.map((t) => t.event.owner))];
