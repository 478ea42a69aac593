import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gunzipSync } from 'node:zlib';
import { describe, it } from '@jest/globals';
import { ProfileDefaults, type PublicProfile } from '@digicard/contracts';
import { renderProfilePage } from '@digicard/profile-view';
import { ENTRY_OVERHEAD_BYTES, PageCache } from './page-cache.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * A full page of a distinct profile, as the gateway renders it (about 15 kB of HTML, 4 kB gzipped): profile `i`'s
 * number in its username, names, links and texts. A hundred pages are rendered (one for each `i % 100`: its phone
 * number and date) and each next profile's page is one of them with its own number put in: rendering all 10,000 took
 * 15 of this file's 18 CPU-seconds, and the cache sees the same distinct pages of the same size either way.
 */
const RENDERED = 100;
const NUMBER = 'QQNUMBERQQ';
const HASH = 'QQHASHQQ';
const rendered = new Map<number, string>();
function pageOf(i: number): string {
  const slot = i % RENDERED;
  let page = rendered.get(slot);
  if (page === undefined) {
    page = renderPage(slot);
    rendered.set(slot, page);
  }
  return page.replaceAll(NUMBER, String(i)).replaceAll(HASH, String((i * 7919) % 100_003));
}

function renderPage(slot: number): string {
  const username = `owner-${NUMBER}`;
  const profile: PublicProfile = {
    username,
    firstName: `Thandiwe${NUMBER}`,
    lastName: `Mokoena-${HASH}`,
    email: `${username}@example.co.za`,
    membership: 'DigiGold',
    document: {
      ...ProfileDefaults,
      title: `Sales Director ${NUMBER} – Ṱhohoyandou`,
      businessName: `Mokoena Solar ${NUMBER}`,
      tel: `082 ${String(slot).padStart(7, '0')}`,
      profileBio: `Twenty years of solar installations across the Karoo and the Garden Route. Customer number ${NUMBER}.`,
      websiteLinks: [{ buttonName: 'Our website', url: `https://mokoena${NUMBER}.co.za` }],
      socialLinks: [{ platform: 'linkedin', url: `https://www.linkedin.com/in/owner${NUMBER}` }],
      videoLink: 'https://youtu.be/dQw4w9WgXcQ',
      products: [{ name: `Solar kit ${NUMBER}`, link: `https://mokoena${NUMBER}.co.za/kit`, imageUrl: '' }],
    },
    features: { socialLinks: true, leadForm: true, gallery: true, video: true, products: true, shareContact: true },
    updatedAt: new Date(1_700_000_000_000 + slot * 1000).toISOString(),
  };
  return renderProfilePage({
    profile,
    brandName: 'DigiCard',
    siteUrl: 'https://digicard.co.za',
    profileUrl: `https://digicard.co.za/${username}`,
    urls: { vcard: `/api/profiles/${username}/vcard`, leads: `/api/profiles/${username}/leads`, register: '/register' },
    scriptUrl: '/profile-assets/profile-page.js?v=0123456789ab',
  });
}

const memory = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};
const MiB = 1024 * 1024;

describe('PageCache: the public pages kept in the gateway, bounded by bytes', () => {
  it('keeps each page as its gzip only, in a buffer of its own exact size (no pooled slab pinned)', () => {
    const cache = new PageCache({ maxBytes: 10 * MiB, ttlMs: 60_000 });
    const html = pageOf(1);
    const page = cache.set('owner-1', html, cache.ticket());
    assert.ok(page);
    assert.equal(gunzipSync(page.gzip).toString('utf8'), html);
    assert.equal(PageCache.html(page).toString('utf8'), html);
    assert.equal(page.gzip.buffer.byteLength, page.gzip.length, 'the gzip buffer owns exactly its bytes');
    assert.equal(page.gzip.byteOffset, 0);
    assert.ok(page.gzip.length < html.length / 2, `${page.gzip.length} gzip bytes for ${html.length} characters`);
    assert.equal(page.bytes, page.gzip.length + ENTRY_OVERHEAD_BYTES);
    assert.match(page.etag, /^"[A-Za-z0-9_-]{27}"$/);
    assert.equal(cache.get('owner-1'), page);
    assert.equal(cache.bytes, page.bytes);
  });

  it('never holds more than maxBytes: the least recently used pages go first', () => {
    const pages = [0, 1, 2, 3, 4].map(pageOf);
    const one = PageCache.entry(pages[0]!, 0).bytes;
    const cache = new PageCache({ maxBytes: Math.floor(one * 3.5), ttlMs: 60_000 });
    for (const i of [0, 1, 2]) cache.set(`owner-${i}`, pages[i]!, cache.ticket());
    assert.equal(cache.size, 3);
    assert.ok(cache.get('owner-0'), 'owner-0 is now the most recently used');
    cache.set('owner-3', pages[3]!, cache.ticket());
    assert.equal(cache.size, 3);
    assert.equal(cache.get('owner-1'), undefined, 'the least recently used page was dropped');
    assert.ok(cache.get('owner-0') && cache.get('owner-2') && cache.get('owner-3'));
    cache.set('owner-4', pages[4]!, cache.ticket());
    assert.ok(cache.bytes <= cache.maxBytes, `${cache.bytes} <= ${cache.maxBytes}`);
    assert.equal(cache.size, 3);
    // Replacing a page does not count it twice.
    cache.set('owner-4', pages[4]!, cache.ticket());
    assert.equal(cache.size, 3);
    assert.ok(cache.bytes <= cache.maxBytes);
    // A page larger than the whole budget is not kept at all.
    const tiny = new PageCache({ maxBytes: 100, ttlMs: 60_000 });
    assert.equal(tiny.set('owner-0', pages[0]!, tiny.ticket()), null);
    assert.equal(tiny.bytes, 0);
  });

  it('does not serve an expired page, and sweeps expired pages and old invalidations out', () => {
    let now = 1_000_000;
    const cache = new PageCache({ maxBytes: 10 * MiB, ttlMs: 60_000, maxFetchMs: 10_000, now: () => now });
    cache.set('owner-1', pageOf(1), cache.ticket());
    now += 30_000;
    cache.set('owner-2', pageOf(2), cache.ticket());
    now += 30_000;
    assert.equal(cache.get('owner-1'), undefined, 'a minute old: not served');
    assert.equal(cache.size, 1);
    cache.set('owner-1', pageOf(1), cache.ticket());
    now += 45_000;
    cache.sweep();
    assert.equal(cache.size, 1, 'owner-2 swept without being asked for');
    assert.ok(cache.get('owner-1'));
    assert.equal(cache.bytes, cache.get('owner-1')!.bytes);
  });

  it('a fetch that began before a Save does not put the old page back (delete, clear)', () => {
    let now = 1_000_000;
    const cache = new PageCache({ maxBytes: 10 * MiB, ttlMs: 60_000, maxFetchMs: 10_000, now: () => now });
    const before = pageOf(1);
    const after = pageOf(2);

    // The race: a visitor's fetch starts, the owner saves (profile.updated drops the page), the old fetch lands.
    const slow = cache.ticket();
    cache.delete('owner-1');
    assert.equal(cache.set('owner-1', before, slow), null, 'the page fetched before the Save is not stored');
    assert.equal(cache.get('owner-1'), undefined);
    // A fetch that starts after the Save stores the new page, and a late old one cannot overwrite it.
    const fresh = cache.ticket();
    assert.ok(cache.set('owner-1', after, fresh));
    const stale = slow;
    assert.equal(cache.set('owner-1', before, stale), null);
    assert.equal(cache.get('owner-1')?.etag, PageCache.entry(after, 0).etag);

    // Another username's Save does not stop this one from being stored.
    const other = cache.ticket();
    cache.delete('owner-9');
    assert.ok(cache.set('owner-2', pageOf(2), other));

    // clear() (an unreadable event) refuses every fetch under way.
    const pending = cache.ticket();
    cache.clear();
    assert.equal(cache.set('owner-3', pageOf(3), pending), null);
    assert.equal(cache.size, 0);
    assert.equal(cache.bytes, 0);

    // A fetch slower than maxFetchMs is not stored (its invalidations may be forgotten by then).
    const slowest = cache.ticket();
    now += 10_001;
    assert.equal(cache.set('owner-4', pageOf(4), slowest), null);
    // Invalidations older than maxFetchMs are swept; a fresh ticket stores as usual.
    cache.sweep();
    assert.ok(cache.set('owner-1', before, cache.ticket()));
  });

  it('10,000 distinct profiles stay under the documented ceiling of a 32 MiB cache (its budget + 8 MiB), and the accounting is honest', () => {
    const budget = 32 * MiB;
    const ceiling = budget + 8 * MiB;
    const cache = new PageCache({ maxBytes: budget, ttlMs: 600_000 });
    // The hundred rendered pages are the test's, not the cache's: made before the measurement starts.
    for (let i = 0; i < RENDERED; i += 1) pageOf(i);
    const start = memory();
    for (let i = 0; i < 10_000; i += 1) cache.set(`owner-${i}`, pageOf(i), cache.ticket());
    const grown = memory() - start;
    process.stdout.write(
      `PageCache: ${cache.size} of 10000 pages kept in ${(cache.bytes / MiB).toFixed(1)} MiB counted; memory grew ${(grown / MiB).toFixed(1)} MiB\n`,
    );
    assert.ok(cache.bytes <= budget, `${cache.bytes} bytes held`);
    assert.ok(cache.size > 5_000, `${cache.size} pages fit in 32 MiB`);
    assert.ok(grown < ceiling, `grew ${(grown / MiB).toFixed(1)} MiB for ${cache.size} pages, ceiling ${ceiling / MiB} MiB`);
    // What the cache counts is what the process holds (within a quarter): the bound is a real bound.
    assert.ok(
      grown < cache.bytes * 1.25 + 2 * MiB,
      `process grew ${(grown / MiB).toFixed(1)} MiB, cache counts ${(cache.bytes / MiB).toFixed(1)} MiB`,
    );
  });
});
