import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Request } from 'express';
import type { Redis } from 'ioredis';
import { AnalyticsSourceSchema, CardSerialSchema, Notices, type AnalyticsBatch, type AnalyticsMetric } from '@digicard/contracts';
import { endOfSaDay, saDay } from '@digicard/domain';
import type { Logger } from '@digicard/config';
import { CONFIG, LOGGER } from '@digicard/server';
import type { Config } from '../config.js';
import { redisCall } from '../redis/redis-call.js';
import { rateLimitAddress } from '../security/client-address.js';
import { clientAddressOf, type ProxyTrust } from '../security/trusted-proxies.js';
import { NATS_CLIENT, REDIS } from '../tokens.js';

/**
 * Robots and link previews (WhatsApp, Facebook, Slack, Twitter/X, Telegram, Discord, LinkedIn, Skype, search
 * engines, monitors, HTTP libraries): never counted. A request without a User-Agent is not a person's browser either.
 */
const ROBOT =
  /bot\b|crawl|spider|slurp|facebookexternalhit|facebookcatalog|meta-externalagent|whatsapp|slack|twitterbot|telegrambot|discordbot|linkedinbot|skypeuripreview|embedly|quora link preview|pinterest|redditbot|applebot|bingpreview|google-inspectiontool|googleother|yandex|baidu|duckduck|petalbot|semrush|ahrefs|mj12|pingdom|uptime|statuscake|site24x7|lighthouse|pagespeed|chrome-lighthouse|curl\/|wget\/|python-|go-http-client|okhttp|java\/|axios|node-fetch|undici|libwww|httpclient|postman|insomnia/i;

export const isRobot = (userAgent: string | undefined): boolean => !userAgent || userAgent.length < 10 || ROBOT.test(userAgent);

/** Prefetches and prerenders (the browser guessing, not a person looking) are not views. */
const PREFETCH = /prefetch|prerender/i;
const prefetching = (value: string | string[] | undefined): boolean => value !== undefined && PREFETCH.test(String(value));
// Each header read by its name (not in a loop over the names): the page path's property loads stay monomorphic.
const isPrefetch = (headers: IncomingHttpHeaders): boolean =>
  prefetching(headers['sec-purpose']) || prefetching(headers['purpose']) || prefetching(headers['x-purpose']);

/** What counting needs of a request, whether express parsed it or the public-page fast path answers it raw. */
export interface Visit {
  readonly headers: IncomingHttpHeaders;
  /** The client's address (through trusted proxies only: TRUST_PROXY, TRUST_PROXY_FROM), only ever hashed. */
  readonly ip: string | undefined;
  /** A query parameter (`src`, `card`), as sent. */
  param(name: string): unknown;
}

/** An express request as a visit (`req.ip` already honours TRUST_PROXY). */
export const visitOf = (req: Request): Visit => ({ headers: req.headers, ip: req.ip, param: (name) => req.query[name] });

/**
 * A raw request as a visit, for the fast path that answers before express: the client address as express computes
 * it with the same `trust proxy` function (the socket's peer, or back along X-Forwarded-For through trusted proxies).
 */
export const rawVisitOf = (req: IncomingMessage, trust: ProxyTrust): Visit => new RawVisit(req, trust);

/** The query and the address are worked out only when asked for: a gateway that does not count never parses them. */
class RawVisit implements Visit {
  private query: URLSearchParams | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly trust: ProxyTrust,
  ) {}

  get headers(): IncomingHttpHeaders {
    return this.req.headers;
  }

  get ip(): string | undefined {
    return clientAddressOf(this.req.socket.remoteAddress, this.req.headers['x-forwarded-for'], this.trust);
  }

  param(name: string): unknown {
    if (!this.query) {
      const url = this.req.url ?? '';
      const mark = url.indexOf('?');
      this.query = new URLSearchParams(mark < 0 ? '' : url.slice(mark + 1));
    }
    return this.query.get(name) ?? undefined;
  }
}

const MAX_BATCH = 5000;
const MAX_ADDRESSES = 200_000;
const SALT_SECONDS = 2 * 86_400;

/** What one South African day of a flush interval holds. */
interface DayCounts {
  /** username → `metric \n key` → count. */
  readonly counts: Map<string, Map<string, number>>;
  /** username → address → the indexes (in `agentList`) of the browsers seen from it: the visitors, hashed at the flush. */
  readonly visitors: Map<string, Map<string, Set<number>>>;
}

/** The count keys of views by source, made once: the page path looks them up instead of building a string per view. */
const VIEW_KEYS: ReadonlyMap<string, string> = new Map(AnalyticsSourceSchema.options.map((source) => [source, `view\n${source}`]));
const VIEW_BY_LINK = VIEW_KEYS.get('link') ?? 'view\nlink';

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
  /** This flush interval's counts and visitors, by day (one day, but for the interval that spans midnight). */
  private days = new Map<string, DayCounts>();
  /**
   * This flush interval's User-Agents: each → its index in `agentList`, or -1 for a robot. A browser is checked for
   * robots once an interval, not once a view, and a visitor is held as the index rather than the whole header.
   */
  private agents = new Map<string, number>();
  private agentList: string[] = [];
  private readonly salts = new Map<string, Promise<string | null>>();
  private timer: NodeJS.Timeout | null = null;
  /**
   * Views, Save to Contact and clicks counted per client address (an IPv6 client by its /64) in the current minute:
   * beyond ANALYTICS_VIEWS_PER_ADDRESS_MINUTE a client's are not counted, so one script cannot inflate a page's numbers
   * or flood its analytics. At most MAX_ADDRESSES are held a minute; counts from further new addresses wait for the next.
   */
  private byAddress = new Map<string, number>();
  private byAddressUntil = 0;
  /** Today in South Africa (`saDay`) and its counts, worked out again only when the day ends or a flush took them. */
  private day: { value: string; until: number; counts: DayCounts | null } = { value: '', until: 0, counts: null };

  constructor(
    @Inject(NATS_CLIENT) private readonly nats: ClientProxy,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** A view of `/{username}` by a person: its source (`?src=`), its NFC card (`?card=`), and the visitor. */
  countView(visit: Visit, username: string): void {
    const agent = this.agentOf(visit);
    if (agent < 0) return;
    const address = visit.ip ?? '';
    if (!this.withinAddressLimit(address)) return;
    const today = this.today();
    const src = visit.param('src');
    this.add(today, username, (typeof src === 'string' && VIEW_KEYS.get(src)) || VIEW_BY_LINK);
    const serial = visit.param('card');
    if (typeof serial === 'string') {
      const card = CardSerialSchema.safeParse(serial.toUpperCase());
      if (card.success) this.add(today, username, `card\n${card.data}`);
    }
    let byAddress = today.visitors.get(username);
    if (!byAddress) today.visitors.set(username, (byAddress = new Map<string, Set<number>>()));
    let browsers = byAddress.get(address);
    if (!browsers) byAddress.set(address, (browsers = new Set()));
    browsers.add(agent);
  }

  private withinAddressLimit(address: string): boolean {
    const now = Date.now();
    if (now >= this.byAddressUntil) {
      this.byAddress.clear();
      this.byAddressUntil = now + 60_000;
    }
    const client = address.includes(':') ? rateLimitAddress(address) : address;
    const seen = this.byAddress.get(client);
    if (seen === undefined) {
      if (this.byAddress.size >= MAX_ADDRESSES) return false;
      this.byAddress.set(client, 1);
      return true;
    }
    if (seen >= this.config.ANALYTICS_VIEWS_PER_ADDRESS_MINUTE) return false;
    this.byAddress.set(client, seen + 1);
    return true;
  }

  /** Save to Contact: the vCard downloaded (within the client address's limit, as views). */
  countSave(req: Request, username: string): void {
    if (this.agentOf(visitOf(req)) >= 0 && this.withinAddressLimit(req.ip ?? '')) this.add(this.today(), username, 'save\n');
  }

  /** A click on the page, from its beacon (within the client address's limit, as views). */
  countClick(req: Request, username: string, target: string): void {
    if (this.agentOf(visitOf(req)) >= 0 && this.withinAddressLimit(req.ip ?? '')) this.add(this.today(), username, `click\n${target}`);
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }

  private today(): DayCounts {
    const now = Date.now();
    if (now >= this.day.until) {
      const at = new Date(now);
      this.day = { value: saDay(at), until: endOfSaDay(at).getTime(), counts: null };
    }
    if (!this.day.counts) {
      let counts = this.days.get(this.day.value);
      if (!counts) this.days.set(this.day.value, (counts = { counts: new Map(), visitors: new Map() }));
      this.day.counts = counts;
    }
    return this.day.counts;
  }

  /** The visit's browser in this interval's `agentList`, or -1 when the visit is not counted (counting off, a robot, a prefetch). */
  private agentOf(visit: Visit): number {
    if (!this.config.VIEW_COUNTING) return -1;
    const userAgent = visit.headers['user-agent'];
    if (userAgent === undefined || isPrefetch(visit.headers)) return -1;
    let agent = this.agents.get(userAgent);
    if (agent === undefined) {
      agent = isRobot(userAgent) ? -1 : this.agentList.push(userAgent) - 1;
      this.agents.set(userAgent, agent);
      this.schedule();
    }
    return agent;
  }

  private add(today: DayCounts, username: string, key: string): void {
    let counts = today.counts.get(username);
    if (!counts) today.counts.set(username, (counts = new Map<string, number>()));
    counts.set(key, (counts.get(key) ?? 0) + 1);
    this.schedule();
  }

  /** The flush timer runs once anything is held (robots' agents included: the table is emptied by the flush). */
  private schedule(): void {
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
    const days = this.days;
    const agents = this.agentList;
    this.days = new Map();
    this.day.counts = null;
    this.agents = new Map();
    this.agentList = [];
    const entries: AnalyticsBatch['entries'] = [];
    for (const [day, { counts }] of days) {
      for (const [username, keys] of counts) {
        for (const [id, count] of keys) {
          const mark = id.indexOf('\n');
          entries.push({ username, day, metric: id.slice(0, mark) as AnalyticsMetric, key: id.slice(mark + 1), count });
        }
      }
    }
    this.send(entries, []);
    for (const [day, { visitors: seen }] of days) {
      if (seen.size === 0) continue;
      void this.saltOf(day).then((salt) => {
        if (!salt) return;
        const visitors: AnalyticsBatch['visitors'] = [];
        for (const [username, byAddress] of seen) {
          for (const [address, browsers] of byAddress) {
            for (const agent of browsers) {
              const hash = createHash('sha256')
                .update(`${salt}\n${address}\n${agents[agent] ?? ''}`)
                .digest('hex')
                .slice(0, 32);
              visitors.push({ username, day, hash });
            }
          }
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
