import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { Events, Notices, Rpc, type PublicProfile, type RequestMeta, type ViewSource } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { ApiHttpException, CONFIG, LOGGER } from '@digicard/server';
import type { Config } from '../config.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { NATS_CLIENT } from '../tokens.js';

export interface PublicPageResult {
  profile: PublicProfile;
  isOwner: boolean;
  shareable: boolean;
}

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * The hottest path: every tap of a card lands here. Shareable profiles are kept in memory for a minute and dropped
 * the moment `profiles.profile.updated` arrives (every gateway replica hears it on core NATS), so a Save shows at
 * once. Views of cached pages are reported with a fire-and-forget notice.
 */
@Injectable()
export class PublicPageService implements OnModuleInit, OnModuleDestroy {
  private readonly cache = new Map<string, { profile: PublicProfile; at: number }>();
  private subscription: Subscription | null = null;

  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(NATS_CLIENT) private readonly nats: ClientProxy,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  onModuleInit(): void {
    const nc = this.nats.unwrap<NatsConnection>();
    this.subscription = nc.subscribe(Events.profileUpdated.subject, {
      callback: (error, msg) => {
        if (error) return;
        try {
          const { data } = msg.json<{ data: { username: string } }>();
          this.cache.delete(data.username);
        } catch {
          this.cache.clear();
        }
      },
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  invalidate(username: string): void {
    this.cache.delete(username);
  }

  async load(username: string, viewerId: string | null, source: ViewSource): Promise<PublicPageResult | null> {
    const meta: RequestMeta = { requestId: randomUUID(), userId: viewerId, role: null, ip: null };
    const cached = viewerId ? undefined : this.cache.get(username);
    if (cached && Date.now() - cached.at < TTL_MS) {
      this.nats.emit(Notices.profileViewed.subject, { username, source }).subscribe({ error: () => undefined });
      return { profile: cached.profile, isOwner: false, shareable: true };
    }
    try {
      const result = await this.rpc.call(Rpc.getPublicProfile, { username, viewerId, source }, meta);
      if (!result.isOwner && result.shareable) {
        if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
        this.cache.set(username, { profile: result.profile, at: Date.now() });
      }
      return result;
    } catch (error) {
      if (error instanceof ApiHttpException && error.body.statusCode === 404) return null;
      throw error;
    }
  }

  /** A vanity path or an account id, or null. */
  async resolve(path: string): Promise<string | null> {
    try {
      const { username } = await this.rpc.call(Rpc.resolvePath, { path }, { requestId: randomUUID(), userId: null, role: null, ip: null });
      return username;
    } catch (error) {
      if (error instanceof ApiHttpException && error.body.statusCode === 404) return null;
      this.logger.warn({ err: error }, 'could not resolve a path');
      return null;
    }
  }

  get publicUrl(): string {
    return this.config.PUBLIC_URL;
  }
}
