import { afterEach, describe, expect, it } from '@jest/globals';
import type { ClientProxy } from '@nestjs/microservices';
import type { Request } from 'express';
import type { Redis } from 'ioredis';
import { of } from 'rxjs';
import type { AnalyticsBatch } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import type { Config } from '../src/config.js';
import { PageAnalytics, type Visit } from '../src/analytics/page-analytics.js';

// Issue 28, item 3: what one client address can count on public pages in a minute (ANALYTICS_VIEWS_PER_ADDRESS_MINUTE),
// views, Save to Contact and clicks together, so a script cannot inflate an owner's numbers or flood their analytics.

const BROWSER = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const LIMIT = 5;

function analytics(): { counter: PageAnalytics; sent: AnalyticsBatch['entries'] } {
  const sent: AnalyticsBatch['entries'] = [];
  const nats = {
    emit: (_subject: string, batch: AnalyticsBatch) => {
      sent.push(...batch.entries);
      return of(undefined);
    },
  } as unknown as ClientProxy;
  // No Redis: no visitor salt, so no unique visitors; the counts are what this test reads.
  const redis = { set: () => Promise.reject(new Error('no redis')), get: () => Promise.reject(new Error('no redis')) } as unknown as Redis;
  const logger = { warn: () => undefined, info: () => undefined, error: () => undefined } as unknown as Logger;
  const config = {
    VIEW_COUNTING: true,
    ANALYTICS_VIEWS_PER_ADDRESS_MINUTE: LIMIT,
    ANALYTICS_FLUSH_MS: 60_000,
    REDIS_KEY_PREFIX: 'unit',
  } as unknown as Config;
  return { counter: new PageAnalytics(nats, redis, config, logger), sent };
}

const request = (ip: string): Request => ({ headers: { 'user-agent': BROWSER }, ip, query: {} }) as unknown as Request;
const visit = (ip: string, card?: string): Visit => ({
  headers: { 'user-agent': BROWSER },
  ip,
  param: (name) => (name === 'card' ? card : undefined),
});
const total = (entries: AnalyticsBatch['entries'], username: string, metric: string) =>
  entries.filter((e) => e.username === username && e.metric === metric).reduce((sum, e) => sum + e.count, 0);

let counters: PageAnalytics[] = [];
afterEach(() => {
  for (const counter of counters) counter.onModuleDestroy();
  counters = [];
});

describe('counting per client address', () => {
  it('counts at most the limit a minute from one address, views, saves and clicks together; another address has its own', () => {
    const { counter, sent } = analytics();
    counters.push(counter);
    for (let i = 0; i < 50; i++) counter.countSave(request('198.51.100.7'), 'ayanda');
    for (let i = 0; i < 50; i++) counter.countClick(request('198.51.100.7'), 'ayanda', `social:x${String.fromCharCode(97 + (i % 26))}`);
    for (let i = 0; i < 50; i++) counter.countView(visit('198.51.100.7', 'K7M3Q9ZT'), 'ayanda');
    // Another owner's page, another address: counted on its own.
    counter.countSave(request('198.51.100.8'), 'sipho');
    counter.countClick(request('198.51.100.8'), 'sipho', 'social:facebook');
    counter.countView(visit('198.51.100.8'), 'sipho');
    counter.flush();

    const fromOne = total(sent, 'ayanda', 'save') + total(sent, 'ayanda', 'click') + total(sent, 'ayanda', 'view');
    expect(fromOne).toBe(LIMIT);
    expect(total(sent, 'ayanda', 'save')).toBe(LIMIT);
    expect(total(sent, 'ayanda', 'click')).toBe(0);
    expect(total(sent, 'ayanda', 'card')).toBe(0);
    expect(total(sent, 'sipho', 'save')).toBe(1);
    expect(total(sent, 'sipho', 'click')).toBe(1);
    expect(total(sent, 'sipho', 'view')).toBe(1);
  });

  it('counts clicks from many addresses, each within its own limit', () => {
    const { counter, sent } = analytics();
    counters.push(counter);
    for (let a = 1; a <= 4; a++) for (let i = 0; i < LIMIT + 3; i++) counter.countClick(request(`203.0.113.${a}`), 'naledi', 'contact:tel');
    counter.flush();
    expect(total(sent, 'naledi', 'click')).toBe(4 * LIMIT);
  });
});
