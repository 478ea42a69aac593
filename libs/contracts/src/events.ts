import { z } from 'zod';
import { EnquiryReceivedSchema } from './enquiries.js';
import type { ServiceName } from './services.js';

export interface EventDefinition<T extends z.ZodType> {
  /** `<service>.<entity>.<past-tense>` */
  readonly subject: string;
  readonly owner: ServiceName;
  readonly data: T;
}

function event<T extends z.ZodType>(owner: ServiceName, subject: string, data: T): EventDefinition<T> {
  if (!subject.startsWith(`${owner}.`)) throw new Error(`Event subject ${subject} must start with its owner ${owner}`);
  return { subject, owner, data };
}

/** Every domain event, declared once. Published on JetStream through the owner's outbox. */
export const Events = {
  enquiryReceived: event('orders', 'orders.enquiry.received', EnquiryReceivedSchema),
} as const;

export type EventName = keyof typeof Events;
export const AllEvents: readonly EventDefinition<z.ZodType>[] = Object.values(Events);

/** What travels on the wire: the id is the outbox row id, also sent as `Nats-Msg-Id`. */
export const EventEnvelopeSchema = z.object({
  id: z.uuid(),
  type: z.string(),
  occurredAt: z.iso.datetime(),
  data: z.unknown(),
});
export type EventEnvelope<T = unknown> = Omit<z.infer<typeof EventEnvelopeSchema>, 'data'> & { data: T };

/** One stream per publishing service, holding exactly the event subjects it owns. */
export function streamFor(owner: ServiceName): { name: string; subjects: string[] } {
  return {
    name: `EVENTS_${owner.toUpperCase()}`,
    subjects: AllEvents.filter((e) => e.owner === owner).map((e) => e.subject),
  };
}
