import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { streamFor, type ServiceName } from '@digicard/contracts';

export type { NatsConnection } from '@nats-io/transport-node';
export type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';

export const nanos = (ms: number): number => ms * 1_000_000;

/** One connection per process, reconnecting for ever: a NATS restart must not take a service down. */
export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect({
    servers: url.split(','),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: true,
  });
}

export interface JetStreamHandles {
  js: JetStreamClient;
  jsm: JetStreamManager;
}

export async function jetStreamHandles(nc: NatsConnection): Promise<JetStreamHandles> {
  return { js: jetstream(nc), jsm: await jetstreamManager(nc) };
}

/**
 * Creates or updates the events stream of a publishing service. Both the publisher and its consumers call this,
 * so start-up order does not matter. Events are kept 30 days: a consumer that was down catches up.
 */
export async function ensureEventStream(jsm: JetStreamManager, owner: ServiceName, replicas = 1): Promise<string | null> {
  const { name, subjects } = streamFor(owner);
  if (subjects.length === 0) return null;
  const config = {
    name,
    subjects,
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    max_age: nanos(30 * 24 * 3600 * 1000),
    duplicate_window: nanos(10 * 60 * 1000),
    num_replicas: replicas,
  };
  try {
    const info = await jsm.streams.info(name);
    const same = info.config.subjects?.length === subjects.length && subjects.every((s) => info.config.subjects?.includes(s));
    if (!same) await jsm.streams.update(name, { ...info.config, subjects });
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await jsm.streams.add(config).catch(async (addError: unknown) => {
      // Another process created it between our look and our add.
      if (!(await jsm.streams.info(name).then(() => true, () => false))) throw addError;
    });
  }
  return name;
}

export function isNotFound(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; name?: unknown };
  return (
    e?.name === 'StreamNotFoundError' ||
    e?.name === 'ConsumerNotFoundError' ||
    (typeof e?.message === 'string' && /not found/i.test(e.message)) ||
    e?.code === 10059 ||
    e?.code === 10014
  );
}
