import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { deadLetterStreamFor, inboxPrefixFor, streamFor, type ServiceName } from '@digicard/contracts';

export type { NatsConnection } from '@nats-io/transport-node';
export type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';

export const nanos = (ms: number): number => ms * 1_000_000;

/**
 * The servers of a NATS_URL (comma-separated) and the bus user in it (`nats://user:password@host:port`), taken out
 * of the URL: the client mis-parses some passwords inside a URL (one starting with a digit is refused). A bus user's
 * replies come to its own inbox prefix (`_INBOX_<user>`), the only reply subjects its NATS user may subscribe to.
 */
export function natsConnectionOptions(url: string): { servers: string[]; user?: string; pass?: string; inboxPrefix?: string } {
  let user: string | undefined;
  let pass: string | undefined;
  const servers = url.split(',').map((server) => {
    const parsed = new URL(server.trim());
    if (parsed.username) {
      user = decodeURIComponent(parsed.username);
      pass = decodeURIComponent(parsed.password);
    }
    return `${parsed.protocol}//${parsed.host}`;
  });
  return { servers, ...(user !== undefined ? { user, pass: pass ?? '', inboxPrefix: inboxPrefixFor(user) } : {}) };
}

/** One connection per process, reconnecting for ever: a NATS restart must not take a service down. */
export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect({
    ...natsConnectionOptions(url),
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

/** How long events are kept: a consumer that was down this long still catches up; `processed_messages` rows older than this (and a margin) can go. */
export const EVENT_RETENTION_MS = 30 * 24 * 3600 * 1000;

/**
 * Declares the events stream of a publishing service: only the owner calls this (consumers wait for the stream,
 * see `startEventConsumer`). Subjects are only ever added: a replica of an older build, which knows fewer events,
 * leaves the stream as a newer one declared it instead of shrinking it and losing the newer events.
 */
export async function ensureEventStream(jsm: JetStreamManager, owner: ServiceName, replicas = 1): Promise<string | null> {
  const { name, subjects } = streamFor(owner);
  if (subjects.length === 0) return null;
  return declareStream(jsm, name, subjects, replicas, EVENT_RETENTION_MS);
}

/** Declares the service's own dead-letter stream (see `deadLetterStreamFor`); kept as long as the events. */
export async function ensureDeadLetterStream(jsm: JetStreamManager, service: ServiceName | 'gateway', replicas = 1): Promise<string> {
  const { name, subjects } = deadLetterStreamFor(service);
  await declareStream(jsm, name, subjects, replicas, EVENT_RETENTION_MS);
  return name;
}

async function declareStream(jsm: JetStreamManager, name: string, subjects: string[], replicas: number, maxAgeMs: number): Promise<string> {
  const config = {
    name,
    subjects,
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    max_age: nanos(maxAgeMs),
    duplicate_window: nanos(10 * 60 * 1000),
    num_replicas: replicas,
  };
  try {
    const info = await jsm.streams.info(name);
    const existing = info.config.subjects ?? [];
    const missing = subjects.filter((s) => !existing.includes(s));
    if (missing.length > 0) await jsm.streams.update(name, { ...info.config, subjects: [...existing, ...missing] });
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await jsm.streams.add(config).catch(async (addError: unknown) => {
      // Another replica created it between our look and our add: declare again, adding what it lacks.
      if (
        !(await jsm.streams.info(name).then(
          () => true,
          () => false,
        ))
      )
        throw addError;
      await declareStream(jsm, name, subjects, replicas, maxAgeMs);
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
