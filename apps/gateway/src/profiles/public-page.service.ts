import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
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

export interface RenderedPage {
  html: string;
  /** The same page gzipped once, for the many visitors whose browsers accept it. */
  gzip: Buffer | null;
  isOwner: boolean;
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
  private readonly cache = new Map<string, { html: string; gzip: Buffer; at: number }>();
  /** Views of cached pages, counted here and sent once a second: `username source` → count. */
  private readonly views = new Map<string, number>();
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly subscriptions: Subscription[] = [];

  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(NATS_CLIENT) private readonly nats: ClientProxy,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  onModuleInit(): void {
    const nc = this.nats.unwrap<NatsConnection>();
    // Both events carry the username; anything unreadable empties the cache rather than risk a stale page.
    for (const subject of [Events.profileUpdated.subject, Events.profileDeleted.subject]) {
      this.subscriptions.push(
        nc.subscribe(subject, {
          callback: (error, msg) => {
            if (error) return;
            try {
              const { data } = msg.json<{ data: { username: string } }>();
              this.cache.delete(data.username);
            } catch {
              this.cache.clear();
            }
          },
        }),
      );
    }
  }

  onModuleDestroy(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    if (this.flushTimer) clearInterval(this.flushTimer);
    this.flushViews();
  }

  private countView(username: string, source: ViewSource): void {
    const key = `${username} ${source}`;
    this.views.set(key, (this.views.get(key) ?? 0) + 1);
    this.flushTimer ??= setInterval(() => this.flushViews(), 1000);
  }

  private flushViews(): void {
    for (const [key, count] of this.views) {
      const [username, source] = key.split(' ') as [string, ViewSource];
      this.nats.emit(Notices.profileViewed.subject, { username, source, count }).subscribe({ error: () => undefined });
    }
    this.views.clear();
  }

  /**
   * The page of a profile, rendered by `render`, or null when there is none for this viewer. Pages of shareable
   * profiles seen by anyone but their owner are kept rendered.
   */
  async page(username: string, viewerId: string | null, source: ViewSource | null, render: (result: PublicPageResult) => string): Promise<RenderedPage | null> {
    const meta: RequestMeta = { requestId: randomUUID(), userId: viewerId, role: null, ip: null };
    const cached = this.cache.get(username);
    if (cached && Date.now() - cached.at < TTL_MS && !viewerId) {
      if (source) this.countView(username, source);
      return { html: cached.html, gzip: cached.gzip, isOwner: false };
    }
    try {
      const result = await this.rpc.call(Rpc.getPublicProfile, { username, source }, meta);
      const html = render(result);
      if (!result.isOwner && result.shareable) {
        if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
        const gzip = gzipSync(html);
        this.cache.set(username, { html, gzip, at: Date.now() });
        return { html, gzip, isOwner: false };
      }
      return { html, gzip: null, isOwner: result.isOwner };
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
