import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Request } from 'express';
import type { Redis } from 'ioredis';
import { AnalyticsSourceSchema, CardSerialSchema, Notices, saDay, type AnalyticsBatch, type AnalyticsMetric } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { CONFIG, LOGGER } from '@digicard/server';
import type { Config } from '../config.js';
import { redisCall } from '../redis/redis-call.js';
import { NATS_CLIENT, REDIS } from '../tokens.js';

/**
 * Robots and link previews (WhatsApp, Facebook, Slack, Twitter/X, Telegram, Discord, LinkedIn, Skype, search
 * engines, monitors, HTTP libraries): never counted. A request without a User-Agent is not a person's browser either.
 */
const ROBOT =
  /bot\b|crawl|spider|slurp|facebookexternalhit|facebookcatalog|meta-externalagent|whatsapp|slack|twitterbot|telegrambot|discordbot|linkedinbot|skypeuripreview|embedly|quora link preview|pinterest|redditbot|applebot|bingpreview|google-inspectiontool|googleother|yandex|baidu|duckduck|petalbot|semrush|ahrefs|mj12|pingdom|uptime|statuscake|site24x7|lighthouse|pagespeed|chrome-lighthouse|curl\/|wget\/|python-|go-http-client|okhttp|java\/|axios|node-fetch|undici|libwww|httpclient|postman|insomnia/i;

export const isRobot = (userAgent: string | undefined): boolean => !userAgent || userAgent.length < 10 || ROBOT.test(userAgent);

/** Prefetches and prerenders (the browser guessing, not a person looking) are not views. */
const isPrefetch = (visit: Visit): boolean =>
  ['sec-purpose', 'purpose', 'x-purpose'].some((name) => /prefetch|prerender/i.test(String(visit.headers[name] ?? '')));

/** What counting needs of a request, whether express parsed it or the public-page fast path answers it raw. */
export interface Visit {
  readonly headers: IncomingHttpHeaders;
  /** The client's address (after TRUST_PROXY hops), only ever hashed. */
  readonly ip: string | undefined;
  /** A query parameter (`src`, `card`), as sent. */
  param(name: string): unknown;
}

/** An express request as a visit (`req.ip` already honours TRUST_PROXY). */
export const visitOf = (req: Request): Visit => ({ headers: req.headers, ip: req.ip, param: (name) => req.query[name] });

/**
 * A raw request as a visit, for the fast path that answers before express: the client address as express computes
 * it with `trust proxy` set to a hop count (the socket's peer, or the address `trustProxy` hops back along
 * X-Forwarded-For).
 */
export function rawVisitOf(req: IncomingMessage, trustProxy: number): Visit {
  const url = req.url ?? '';
  const mark = url.indexOf('?');
  const query = new URLSearchParams(mark < 0 ? '' : url.slice(mark + 1));
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
    .reverse();
  const hops = [req.socket.remoteAddress, ...forwarded];
  return { headers: req.headers, ip: hops[Math.min(trustProxy, hops.length - 1)], param: (name) => query.get(name) ?? undefined };
}

const MAX_BATCH = 5000;
const SALT_SECONDS = 2 * 86_400;

/**
 * Counts what visitors do on public pages without slowing them: each count is a few map updates in memory, sent to
 * the profiles service as one batch about once a second (`profiles.analytics.record`, fire-and-forget on core
 * NATS: a replica that dies loses at most a second of counts). Unique visitors are a hash of the address and the
 * browser with a salt that changes every day and lives two days in Redis, so no address is kept and yesterday's
 * hashes cannot be matched with today's. The hashing is done at the flush, once per distinct visitor of the second
 * (the page path only adds the visitor to a set): an address is held in memory until the next flush, never longer,
 * and never leaves the process. The page path calls one method (`countView`) and nothing else.
 */
@Injectable()
export class PageAnalytics implements OnModuleDestroy {
  /** `username \n day \n metric \n key` → count. */
  private readonly counts = new Map<string, number>();
  /** `username \n day \n address \n browser` of this flush interval's visitors, hashed (and dropped) at the flush. */
  private readonly visitors = new Set<string>();
  private readonly salts = new Map<string, Promise<string | null>>();
  private timer: NodeJS.Timeout | null = null;
  /** Today in South Africa (`saDay`), worked out again only when the day ends: the page path asks on every view. */
  private day = { value: '', until: 0 };

  constructor(
    @Inject(NATS_CLIENT) private readonly nats: ClientProxy,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** A view of `/{username}` by a person: its source (`?src=`), its NFC card (`?card=`), and the visitor. */
  countView(visit: Visit, username: string): void {
    if (!this.counting(visit)) return;
    const src = AnalyticsSourceSchema.safeParse(visit.param('src'));
    const day = this.today();
    this.add(username, day, 'view', src.success ? src.data : 'link');
    const serial = visit.param('card');
    if (typeof serial === 'string') {
      const card = CardSerialSchema.safeParse(serial.toUpperCase());
      if (card.success) this.add(username, day, 'card', card.data);
    }
    this.visitors.add(`${username}\n${day}\n${visit.ip ?? ''}\n${visit.headers['user-agent'] ?? ''}`);
  }

  /** Save to Contact: the vCard downloaded. */
  countSave(req: Request, username: string): void {
    if (this.counting(visitOf(req))) this.add(username, this.today(), 'save', '');
  }

  /** A click on the page, from its beacon. */
  countClick(req: Request, username: string, target: string): void {
    if (this.counting(visitOf(req))) this.add(username, this.today(), 'click', target);
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }

  private today(): string {
    const now = Date.now();
    if (now >= this.day.until) {
      // South Africa is UTC+2 all year: its day ends at 22:00 UTC.
      const offset = 2 * 3_600_000;
      this.day = { value: saDay(new Date(now)), until: (Math.floor((now + offset) / 86_400_000) + 1) * 86_400_000 - offset };
    }
    return this.day.value;
  }

  private counting(visit: Visit): boolean {
    return this.config.VIEW_COUNTING && !isRobot(visit.headers['user-agent']) && !isPrefetch(visit);
  }

  private add(username: string, day: string, metric: AnalyticsMetric, key: string): void {
    const id = `${username}\n${day}\n${metric}\n${key}`;
    this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
    this.timer ??= setInterval(() => this.flush(), this.config.ANALYTICS_FLUSH_MS);
  }

  /** Today's salt, shared by every replica through Redis (the first to ask sets it); null while Redis is down. */
  private saltOf(day: string): Promise<string | null> {
    let salt = this.salts.get(day);
    if (!salt) {
      const key = `${this.config.REDIS_KEY_PREFIX}:analytics:salt:${day}`;
      salt = redisCall(async () => {
        await this.redis.set(key, randomBytes(32).toString('hex'), 'EX', SALT_SECONDS, 'NX');
        return this.redis.get(key);
      }).catch((error: unknown) => {
        this.logger.warn({ err: error }, 'no visitor salt from Redis: unique visitors not counted for now');
        this.salts.delete(day);
        return null;
      });
      for (const old of this.salts.keys()) if (old !== day) this.salts.delete(old);
      this.salts.set(day, salt);
    }
    return salt;
  }

  /** Sends what was counted since the last flush, in batches of at most 5000 rows; the visitors once hashed. */
  flush(): void {
    const entries: AnalyticsBatch['entries'] = [];
    for (const [id, count] of this.counts) {
      const [username, day, metric, key] = id.split('\n') as [string, string, AnalyticsMetric, string];
      entries.push({ username, day, metric, key, count });
    }
    const seen = [...this.visitors];
    this.counts.clear();
    this.visitors.clear();
    this.send(entries, []);
    const days = new Set(seen.map((id) => id.slice(id.indexOf('\n') + 1, id.indexOf('\n') + 11)));
    for (const day of days) {
      void this.saltOf(day).then((salt) => {
        if (!salt) return;
        const visitors: AnalyticsBatch['visitors'] = [];
        for (const id of seen) {
          const [username = '', visitDay = '', address = '', browser = ''] = id.split('\n');
          if (visitDay !== day) continue;
          const hash = createHash('sha256').update(`${salt}\n${address}\n${browser}`).digest('hex').slice(0, 32);
          visitors.push({ username, day, hash });
        }
        this.send([], visitors);
      });
    }
  }

  private send(entries: AnalyticsBatch['entries'], visitors: AnalyticsBatch['visitors']): void {
    for (let i = 0; i < Math.max(entries.length, visitors.length); i += MAX_BATCH) {
      const batch: AnalyticsBatch = { entries: entries.slice(i, i + MAX_BATCH), visitors: visitors.slice(i, i + MAX_BATCH) };
      this.nats.emit(Notices.analyticsRecorded.subject, batch).subscribe({
        error: (error: unknown) => this.logger.warn({ err: error }, 'analytics batch not sent'),
      });
    }
  }
}
