import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { Events, Rpc, type PublicProfile, type RequestMeta, type ViewSource } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { ApiHttpException, CONFIG, IntervalTask, LOGGER, publicPageCache } from '@digicard/server';
import type { Config } from '../config.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { NATS_CLIENT } from '../tokens.js';
import { PageCache, type CachedPage } from './page-cache.js';

export interface PublicPageResult {
  profile: PublicProfile;
  isOwner: boolean;
  shareable: boolean;
}

export interface RenderedPage {
  /** The kept page (gzipped once, with its ETag), for anyone but the owner of a shareable profile. */
  cached: CachedPage | null;
  /** The page rendered for this request only, when it is not kept (the owner's own view, a page not shareable). */
  html: string | null;
  isOwner: boolean;
}

/**
 * The hottest path: every tap of a card lands here. Shareable profiles are kept in memory for a minute and dropped
 * the moment `profiles.profile.updated` arrives (every gateway replica hears it on core NATS), so a Save shows at
 * once. Views are counted by PageAnalytics, wherever the page was answered from. The cache is bounded by bytes
 * (PUBLIC_PAGE_CACHE_MAX_MB) and swept of expired pages; see `PageCache`.
 */
@Injectable()
export class PublicPageService implements OnModuleInit, OnModuleDestroy {
  /** `delete(username)` and `clear()` are the invalidation API (profile.updated, profile.deleted, team changes). */
  readonly cache: PageCache;
  private readonly sweeper: IntervalTask;
  private readonly subscriptions: Subscription[] = [];

  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(NATS_CLIENT) private readonly nats: ClientProxy,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    this.cache = new PageCache({
      maxBytes: config.PUBLIC_PAGE_CACHE_MAX_MB * 1024 * 1024,
      ttlMs: config.PUBLIC_PAGE_CACHE_TTL_SECONDS * 1000,
      maxFetchMs: Math.max(config.REQUEST_TIMEOUT_MS * 2, 10_000),
    });
    const sweepMs = Math.min(config.PUBLIC_PAGE_CACHE_TTL_SECONDS * 1000, 30_000);
    this.sweeper = new IntervalTask('page cache sweep', sweepMs, () => Promise.resolve(this.cache.sweep()), logger);
  }

  onModuleInit(): void {
    this.sweeper.start();
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
    void this.sweeper.stop();
  }

  /**
   * The fast path's question: the kept page of `username` for a visitor who is not signed in, or undefined (then
   * the request takes the full path). The caller counts the view (PageAnalytics).
   */
  cachedPage(username: string): CachedPage | undefined {
    return this.cache.get(username);
  }

  /**
   * The page of a profile, rendered by `render`, or null when there is none for this viewer. Pages of shareable
   * profiles seen by anyone but their owner are kept rendered.
   */
  async page(
    username: string,
    viewerId: string | null,
    source: ViewSource | null,
    render: (result: PublicPageResult) => string,
  ): Promise<RenderedPage | null> {
    const meta: RequestMeta = { requestId: randomUUID(), userId: viewerId, role: null, ip: null };
    if (!viewerId) {
      const cached = this.cachedPage(username);
      publicPageCache.inc({ result: cached ? 'hit' : 'miss' });
      if (cached) return { cached, html: null, isOwner: false };
    }
    // Taken before the fetch: a Save that lands while it is under way keeps the older page out of the cache.
    const ticket = this.cache.ticket();
    try {
      const result = await this.rpc.call(Rpc.getPublicProfile, { username, source }, meta);
      const html = render(result);
      if (!result.isOwner && result.shareable) {
        const cached = this.cache.set(username, html, ticket);
        if (cached) return { cached, html: null, isOwner: false };
      }
      return { cached: null, html, isOwner: result.isOwner };
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
