import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { z } from 'zod';
import { createLogger } from '@digicard/config';
import {
  type EventDefinition,
  type ExportChunkSchema,
  type PageRequestSchema,
  type RequestMeta,
  type Role,
  type RpcDefinition,
} from '@digicard/contracts';
import { ensureServiceRoles, serviceDatabaseUrl } from '@digicard/db';
import { connectNats, jetStreamHandles, provisionStreams } from '@digicard/messaging';
import {
  RpcCallError,
  RpcClient,
  createNatsClient,
  startService,
  type RunningService,
  type ServiceBaseConfig,
  type ServiceDefinition,
} from '@digicard/server';
import { DEFAULTS, PrivateNats, requireServers, testLogDestination, waitFor } from '@digicard/testing';

/**
 * Declares every events and dead-letter stream on the NATS server at `natsUrl`, as the one-shot step `nats-streams`
 * does before the apps start (the apps never declare a stream). Idempotent.
 */
export async function provisionStreamsAt(natsUrl: string): Promise<void> {
  const nc = await connectNats(natsUrl, 'test-stream-provisioner');
  try {
    await provisionStreams((await jetStreamHandles(nc)).jsm);
  } finally {
    await nc.close();
  }
}

/** Who makes a call in a test: a visitor (`null`), or an account with a role. */
export type Caller = { accountId: string; role?: Role } | null;

export const metaFor = (caller: Caller): RequestMeta => ({
  requestId: randomUUID(),
  userId: caller?.accountId ?? null,
  role: caller ? (caller.role ?? 'user') : null,
  ip: '127.0.0.1',
});

/** What a service answered: its value, or the ApiError it refused with. */
export type Answer<T> =
  { ok: true; value: T } | { ok: false; status: number; code: string; message: string; fieldErrors?: Record<string, string[]> };

/**
 * One service started inside the test's own process, on real servers: its own fresh PostgreSQL database (migrated
 * as in production), its own NATS server with JetStream, and the service's real modules, repositories and
 * consumers. Tests reach its use cases with `get`, its subjects over real NATS with `call`, and its event handlers
 * by publishing the event as the owning service would (`publish`). Fast (no process to spawn) and precise about the
 * rule under test, like immich's medium tests.
 */
export class InProcessService<C extends ServiceBaseConfig> {
  private pool: pg.Pool | null = null;
  private readonly client: RpcClient;

  private constructor(
    private readonly def: ServiceDefinition<C>,
    private readonly config: C,
    running: RunningService<C>,
    /** The service's own NATS server; none when the test named another's (`env.NATS_URL`). */
    private readonly nats: PrivateNats | null,
    readonly databaseName: string,
    readonly databaseUrl: string,
    /** The NATS server the service talks to: its own, unless the test named another's. */
    readonly natsUrl: string,
  ) {
    this.running = running;
    this.client = new RpcClient(createNatsClient(natsUrl, `${running.ctx.service}-test-client`), 5000);
  }

  /** The service as started (its Nest application and context); a new one after `restart`. */
  running: RunningService<C>;

  /**
   * `env.NATS_URL` set to another in-process service's `natsUrl` puts both on one NATS server, so that they answer
   * each other's requests (a service that asks another, as teams asks identity). `provisionStreams: false` starts it
   * before the stream provisioner has run (a test of the wait; `provisionStreamsAt` declares them later).
   */
  static async start<C extends ServiceBaseConfig>(
    def: ServiceDefinition<C>,
    env: Record<string, string> = {},
    options: { provisionStreams?: boolean } = {},
  ): Promise<InProcessService<C>> {
    await requireServers();
    const databaseName = `digicard_u_${def.service}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: DEFAULTS.databaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${databaseName}"`);
    await admin.end();
    const url = new URL(DEFAULTS.databaseUrl);
    url.pathname = `/${databaseName}`;
    // The service connects as its own role (rights on its own schema only), as in production; tests read as the admin.
    await ensureServiceRoles(url.toString());
    // A NATS server of its own only when the test did not put it on another's.
    const nats = env['NATS_URL'] ? null : await new PrivateNats().start();
    const config = def.configSchema.parse({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'warn',
      HOST: '127.0.0.1',
      HEALTH_PORT: '0',
      ...(nats ? { NATS_URL: nats.url } : {}),
      DATABASE_URL: serviceDatabaseUrl(url.toString(), def.service),
      ...env,
    });
    try {
      // Every stream, as the stream provisioner (nats-streams) declares them before the apps start.
      if (options.provisionStreams !== false) await provisionStreamsAt(config.NATS_URL);
      const running = await startService(def, config, createLogger(def.service, config.LOG_LEVEL, testLogDestination));
      return new InProcessService(def, config, running, nats, databaseName, url.toString(), config.NATS_URL);
    } catch (error) {
      await nats?.destroy();
      throw error;
    }
  }

  /**
   * Stops the service and starts it again on the same database and configuration, as a restarted process would
   * (its migrations run again, its consumers resume).
   */
  async restart(): Promise<void> {
    await this.pause();
    await this.resume();
  }

  /** Stops the service as a crashed or stopped process would be (nothing answers its subjects) until `resume`. */
  async pause(): Promise<void> {
    await this.running.close();
  }

  /** Starts the paused service again on the same database and configuration (its migrations run, its consumers resume). */
  async resume(): Promise<void> {
    this.running = await startService(this.def, this.config, createLogger(this.def.service, this.config.LOG_LEVEL, testLogDestination));
  }

  /** A provider of the service (a use case, a repository), as Nest built it. */
  get<T>(token: abstract new (...args: never[]) => T): T {
    return this.running.app.get(token);
  }

  get service(): string {
    return this.running.ctx.service;
  }

  /** Sends a request of the contract over NATS as `caller`, and says what came back (or why it was refused). */
  async call<Req extends z.ZodType, Res extends z.ZodType>(
    def: RpcDefinition<Req, Res>,
    body: z.input<Req>,
    caller: Caller = null,
  ): Promise<Answer<z.output<Res>>> {
    try {
      return { ok: true, value: await this.client.call(def, body, metaFor(caller)) };
    } catch (error) {
      if (error instanceof RpcCallError && error.apiError) {
        const { statusCode, code, message, fieldErrors } = error.apiError;
        return { ok: false, status: statusCode, code, message, ...(fieldErrors ? { fieldErrors } : {}) };
      }
      throw error;
    }
  }

  /**
   * A service's part of the data export as one object, read chunk after chunk as the gateway does (`ExportChunk`): its
   * fields, and each list with every page of it. `limit` is the page size asked for.
   */
  async exportOf(
    def: RpcDefinition<typeof PageRequestSchema, typeof ExportChunkSchema>,
    caller: Caller,
    limit?: number,
  ): Promise<Answer<Record<string, unknown>>> {
    const value: Record<string, unknown> = {};
    let cursor: string | undefined;
    do {
      const chunk = await this.call(def, { ...(cursor ? { cursor } : {}), ...(limit ? { limit } : {}) }, caller);
      if (!chunk.ok) return chunk;
      Object.assign(value, chunk.value.fields);
      if (chunk.value.list) {
        const { name, items } = chunk.value.list;
        value[name] = [...((value[name] as unknown[] | undefined) ?? []), ...items];
      }
      cursor = chunk.value.nextCursor ?? undefined;
    } while (cursor);
    return { ok: true, value };
  }

  /**
   * Publishes an event on its owner's stream as the owning service's outbox relay would (the envelope, with its id
   * as `Nats-Msg-Id`); returns the event id.
   */
  async publish<T extends z.ZodType>(event: EventDefinition<T>, data: z.input<T>, id: string = randomUUID()): Promise<string> {
    const nc = await connectNats(this.natsUrl, 'test-publisher');
    try {
      const { js } = await jetStreamHandles(nc);
      const envelope = { id, type: event.subject, occurredAt: new Date().toISOString(), data: event.data.parse(data) };
      // A fresh Nats-Msg-Id each time: a test may deliver the same event twice, past JetStream's de-duplication, to
      // see the consumer itself skip it.
      await js.publish(event.subject, JSON.stringify(envelope), { msgID: randomUUID() });
      return id;
    } finally {
      await nc.close();
    }
  }

  /** Waits until the consumer of `event` in this service has handled the event with this id. */
  async handled(event: EventDefinition<z.ZodType>, eventId: string): Promise<void> {
    await waitFor(`${this.service} to handle ${event.subject} ${eventId}`, async () => {
      const rows = await this.sql(`SELECT 1 FROM "${this.service}".processed_messages WHERE message_id = $1`, [eventId]);
      return rows.length > 0;
    });
  }

  /** The events this service recorded in its outbox (sent or not), oldest first, optionally of one subject. */
  async recordedEvents<T = Record<string, unknown>>(subject?: string): Promise<Array<{ id: string; subject: string; data: T }>> {
    const rows = await this.sql<{ id: string; subject: string; payload: { data: T } }>(
      `SELECT id, subject, payload FROM "${this.service}".outbox ${subject ? 'WHERE subject = $1' : ''} ORDER BY created_at`,
      subject ? [subject] : [],
    );
    return rows.map((r) => ({ id: r.id, subject: r.subject, data: r.payload.data }));
  }

  async sql<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    if (!this.pool) {
      this.pool = new pg.Pool({ connectionString: this.databaseUrl, max: 2 });
      // An idle connection cut while the pool is ending (the database dropped WITH (FORCE) in `stop`) says so here;
      // without a listener that message would fail the test file after its tests passed.
      this.pool.on('error', () => undefined);
    }
    return (await this.pool.query<T>(text, params)).rows;
  }

  async stop(): Promise<void> {
    await (this.client.proxy.close() as Promise<void>);
    await this.running.close();
    await this.pool?.end();
    await this.nats?.destroy();
    const admin = new pg.Client({ connectionString: DEFAULTS.databaseUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${this.databaseName}" WITH (FORCE)`);
    await admin.end();
  }
}
