import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { inboxPrefixFor, provisionedStreams, type ProvisionedStream } from '@digicard/contracts';

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

export type StreamDeclaration = 'created' | 'updated' | 'unchanged';

/**
 * Declares every stream of the system (`provisionedStreams`: each publishing service's events, each consuming app's
 * dead letters) with `replicas` copies, as the stream provisioner: run once before the apps start, and again at every
 * deploy (idempotent). A stream that exists is brought back to its declared configuration: its subjects (only ever
 * added), how long it keeps events, its copies, and no `sources` or subject transform. A stream that republishes
 * (which JetStream cannot undo by an update) is refused with what to do: the run fails until an operator remakes it.
 */
export async function provisionStreams(
  jsm: JetStreamManager,
  replicas = 1,
): Promise<Array<{ name: string; kind: ProvisionedStream['kind']; result: StreamDeclaration }>> {
  const results = [];
  for (const stream of provisionedStreams())
    results.push({ name: stream.name, kind: stream.kind, result: await provisionStream(jsm, stream, replicas) });
  return results;
}

/**
 * Declares one stream of the system as `provisionStreams` does (`streamFor(owner)`, `deadLetterStreamFor(app)`): for
 * a test that needs one service's streams on its own NATS server, not the whole set.
 */
export function provisionStream(
  jsm: JetStreamManager,
  stream: { name: string; subjects: string[] },
  replicas = 1,
): Promise<StreamDeclaration> {
  return declareStream(jsm, stream.name, stream.subjects, replicas, EVENT_RETENTION_MS);
}

async function declareStream(
  jsm: JetStreamManager,
  name: string,
  subjects: string[],
  replicas: number,
  maxAgeMs: number,
): Promise<StreamDeclaration> {
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
    const current = info.config as Partial<StreamConfig>;
    // JetStream cannot take a republish away by an update: the stream has to be made again, by an operator.
    if (current.republish)
      throw new Error(
        `${name} republishes ${current.republish.src ?? '>'} to ${current.republish.dest}, which no stream of DigiCard does and an update cannot undo: ` +
          `copy what it holds if needed, delete it (nats stream rm ${name}) and run the provisioner again`,
      );
    const drifted =
      missing.length > 0 ||
      current.retention !== config.retention ||
      current.max_age !== config.max_age ||
      current.duplicate_window !== config.duplicate_window ||
      current.num_replicas !== config.num_replicas ||
      (current.sources?.length ?? 0) > 0 ||
      current.subject_transform !== undefined;
    if (!drifted) return 'unchanged';
    // The client merges an update into the stream's current configuration: what goes is set to nothing explicitly.
    await jsm.streams.update(name, { ...config, subjects: [...existing, ...missing], sources: [], subject_transform: undefined });
    return 'updated';
  } catch (error) {
    if (!isNotFound(error)) throw error;
    return jsm.streams.add(config).then(
      () => 'created' as const,
      async (addError: unknown) => {
        // Another provisioner created it between our look and our add: declare again, adding what it lacks.
        if (
          !(await jsm.streams.info(name).then(
            () => true,
            () => false,
          ))
        )
          throw addError;
        return declareStream(jsm, name, subjects, replicas, maxAgeMs);
      },
    );
  }
}

/** The streams of `names` that are not declared yet (the apps wait for the provisioner's). */
export async function missingStreams(jsm: JetStreamManager, names: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const name of names) {
    try {
      await jsm.streams.info(name);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      missing.push(name);
    }
  }
  return missing;
}

/**
 * Resolves once every stream of `names` exists. An app never declares its streams (the provisioner does): until they
 * are there it logs once what it waits for, looks again every `everyMs` (growing to 5 s), and resolves `false` when
 * `signal` aborts first. NATS being away is waited out the same way.
 */
export async function waitForStreams(
  jsm: JetStreamManager,
  names: readonly string[],
  logger: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void },
  signal: AbortSignal,
  everyMs = 250,
): Promise<boolean> {
  let said = false;
  for (let attempt = 0; !signal.aborted; attempt++) {
    try {
      const missing = await missingStreams(jsm, names);
      if (missing.length === 0) {
        if (said) logger.info({ streams: names }, 'streams declared: carrying on');
        return true;
      }
      if (!said)
        logger.warn(
          { streams: missing },
          `waiting for the stream provisioner (nats-streams) to declare ${missing.join(', ')}: events stay in the outbox until then`,
        );
      said = true;
    } catch (error) {
      logger.warn({ err: error, streams: names }, 'could not look at the streams; will look again');
    }
    await new Promise<void>((resolve) => {
      const stop = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          signal.removeEventListener('abort', stop);
          resolve();
        },
        Math.min(5000, everyMs * 2 ** attempt),
      );
      signal.addEventListener('abort', stop, { once: true });
    });
  }
  return false;
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
