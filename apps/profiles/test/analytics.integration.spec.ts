import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AnalyticsUpgradeMessage, Events, Rpc, leadConsentText, type AnalyticsBatch } from '@digicard/contracts';
import { saDay } from '@digicard/domain';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { AnalyticsQueries } from '../src/analytics/analytics-queries.js';
import { profilesService } from '../src/service.js';

// Analytics in the profiles service: the gateway's batches counted up per day (views through a card only for the
// page's own cards, keys and visitors capped per day), the report each tier may see, and nobody else's numbers.

let service: InProcessService<Config>;
/** The cap on distinct card serials and click targets per profile and day this service runs with (not the default). */
const KEYS_PER_DAY = 40;

const SERIAL_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A well-formed card serial of its own for each name. */
const serialOf = (name: string): string =>
  [...createHash('sha256').update(name).digest()]
    .slice(0, 8)
    .map((b) => SERIAL_ALPHABET[b % SERIAL_ALPHABET.length])
    .join('');

/** Orders says these cards open this account's page (as when a paid order's cards are made, or a leader moves one). */
async function assignCards(accountId: string, serials: string[], at = new Date()): Promise<void> {
  await service.handled(
    Events.cardsAssigned,
    await service.publish(Events.cardsAssigned, { cards: serials.map((serial) => ({ serial, accountId })), at: at.toISOString() }),
  );
}

async function owner(username: string, membership: string): Promise<string> {
  const accountId = randomUUID();
  const eventId = await service.publish(Events.userRegistered, {
    accountId,
    username,
    email: `${username}@example.test`,
    firstName: 'Lerato',
    lastName: 'Mokoena',
    role: 'user',
    registeredAt: new Date().toISOString(),
  });
  await service.handled(Events.userRegistered, eventId);
  await service.handled(
    Events.userVerified,
    await service.publish(Events.userVerified, { accountId, verifiedAt: new Date().toISOString() }),
  );
  await service.sql('UPDATE profiles.profiles SET membership = $1 WHERE account_id = $2', [membership, accountId]);
  // The owner's one NFC card, which `batch` views the page through.
  await assignCards(accountId, [serialOf(username)]);
  return accountId;
}

const today = saDay();
const daysAgo = (n: number): string => new Date(Date.parse(today) - n * 86_400_000).toISOString().slice(0, 10);
const hash = (n: number): string => n.toString(16).padStart(32, '0');

function batch(username: string): AnalyticsBatch {
  return {
    entries: [
      { username, day: today, metric: 'view', key: 'qr', count: 3 },
      { username, day: today, metric: 'view', key: 'link', count: 2 },
      { username, day: today, metric: 'view', key: 'wallet', count: 1 },
      { username, day: daysAgo(1), metric: 'view', key: 'wa', count: 4 },
      { username, day: today, metric: 'card', key: serialOf(username), count: 2 },
      { username, day: today, metric: 'save', key: '', count: 1 },
      { username, day: today, metric: 'click', key: 'social:facebook', count: 5 },
      { username, day: daysAgo(40), metric: 'view', key: 'link', count: 100 },
      { username: 'nobody-has-this-name', day: today, metric: 'view', key: 'link', count: 7 },
    ],
    visitors: [
      { username, day: today, hash: hash(1) },
      { username, day: today, hash: hash(2) },
      { username, day: today, hash: hash(2) },
    ],
  };
}

beforeAll(async () => {
  service = await InProcessService.start(profilesService, { ANALYTICS_KEYS_PER_DAY: String(KEYS_PER_DAY) });
});

afterAll(async () => {
  await service.stop();
});

describe('analytics', () => {
  it('adds batches onto the day’s counts (twice the batch, twice the counts; visitors once a day)', async () => {
    const accountId = await owner('platinum-one', 'DigiPlatinum');
    await service.get(AnalyticsQueries).record(batch('platinum-one'));
    await service.get(AnalyticsQueries).record(batch('platinum-one'));
    const report = await service.call(Rpc.getAnalytics, {}, { accountId });
    expect(report).toMatchObject({
      ok: true,
      value: {
        full: true,
        to: today,
        from: daysAgo(29),
        totals: { views: 20, visitors: 2, saves: 2, clicks: 10, leads: 0 },
        bySource: { qr: 6, link: 4, wa: 8, nfc: 0, email: 0, wallet: 2 },
        cards: [{ serial: serialOf('platinum-one'), views: 4 }],
        clicks: [{ target: 'social:facebook', count: 10 }],
      },
    });
    if (!report.ok) return;
    expect(report.value.daily).toHaveLength(30);
    expect(report.value.daily.at(-1)).toMatchObject({ day: today, views: 12, visitors: 2, bySource: { qr: 6, link: 4, wallet: 2 } });
    expect(report.value.daily.at(-2)).toMatchObject({ day: daysAgo(1), views: 8, bySource: { wa: 8 } });
    const rows = await service.sql('SELECT count(*)::int AS n FROM profiles.analytics_daily WHERE account_id <> $1', [accountId]);
    expect(rows[0]!['n']).toBe(0);
  });

  it('gives DigiPlatinum any range, and counts leads per day', async () => {
    const accountId = await owner('platinum-two', 'DigiPlatinum');
    await service.get(AnalyticsQueries).record(batch('platinum-two'));
    const submitted = await service.call(Rpc.submitLead, {
      username: 'platinum-two',
      submission: { kind: 'lead', firstName: 'Thabo', email: 'thabo@example.test', phone: '082 123 4567', consent: true },
    });
    expect(submitted.ok).toBe(true);
    const range = await service.call(Rpc.getAnalytics, { from: daysAgo(45), to: today }, { accountId });
    expect(range).toMatchObject({ ok: true, value: { from: daysAgo(45), totals: { views: 110, leads: 1 } } });
    if (range.ok) expect(range.value.daily).toHaveLength(46);
    const bad = await service.call(Rpc.getAnalytics, { from: today, to: daysAgo(3) }, { accountId });
    expect(bad).toMatchObject({ ok: false, status: 400, fieldErrors: { 'body.from': ['The start must be on or before the end.'] } });
    const tooLong = await service.call(Rpc.getAnalytics, { from: daysAgo(400), to: today }, { accountId });
    expect(tooLong).toMatchObject({ ok: false, status: 400 });
  });

  it.each(['DigiShare', 'DigiSilver', 'DigiGold'])('gives %s the last 30 days’ totals only, and refuses a range', async (membership) => {
    const username = `totals-${membership.toLowerCase()}`;
    const accountId = await owner(username, membership);
    await service.get(AnalyticsQueries).record(batch(username));
    const report = await service.call(Rpc.getAnalytics, {}, { accountId });
    expect(report).toEqual({
      ok: true,
      value: {
        full: false,
        from: daysAgo(29),
        to: today,
        totals: { views: 10, visitors: 2, saves: 1, clicks: 5, leads: 0 },
        bySource: { link: 0, qr: 0, nfc: 0, wa: 0, email: 0, wallet: 0 },
        cards: [],
        clicks: [],
        daily: [],
      },
    });
    const range = await service.call(Rpc.getAnalytics, { from: daysAgo(7), to: today }, { accountId });
    expect(range).toMatchObject({ ok: false, status: 403, message: AnalyticsUpgradeMessage });
  });

  it('shows each owner only their own numbers, and nobody signed out', async () => {
    const mine = await owner('mine-only', 'DigiPlatinum');
    await owner('theirs-only', 'DigiPlatinum');
    await service.get(AnalyticsQueries).record(batch('theirs-only'));
    expect(await service.call(Rpc.getAnalytics, {}, { accountId: mine })).toMatchObject({
      ok: true,
      value: { totals: { views: 0, clicks: 0 } },
    });
    expect(await service.call(Rpc.getAnalytics, {}, null)).toMatchObject({ ok: false, status: 401 });
    // A body naming another account is not part of the contract: the report stays the caller's.
    expect(await service.call(Rpc.getAnalytics, { accountId: randomUUID() } as never, { accountId: mine })).toMatchObject({
      ok: true,
      value: { totals: { views: 0 } },
    });
  });

  it('keeps the consent the lead form showed and when, and the phone as E.164; the export has both and the counts', async () => {
    const accountId = await owner('consent-kept', 'DigiGold');
    const before = Date.now();
    for (const phone of ['082 123 4567', '+27 82 123 4567', '27821234567']) {
      const sent = await service.call(Rpc.submitLead, {
        username: 'consent-kept',
        submission: { kind: 'exchange', firstName: 'Ayanda', email: 'ayanda@example.test', phone, consent: true },
      });
      expect(sent.ok).toBe(true);
    }
    const rows = await service.sql<{ consent_text: string; consent_at: Date; phone: string }>(
      'SELECT consent_text, consent_at, phone FROM profiles.leads WHERE account_id = $1',
      [accountId],
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.consent_text).toBe(leadConsentText('Lerato'));
      expect(row.consent_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(row.phone).toBe('+27821234567');
    }
    const bad = await service.call(Rpc.submitLead, {
      username: 'consent-kept',
      submission: { kind: 'exchange', firstName: 'Ayanda', email: 'ayanda@example.test', phone: '12', consent: true },
    });
    expect(bad).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { 'body.submission.phone': ['Please enter a phone number, e.g. 082 123 4567.'] },
    });
    await service.get(AnalyticsQueries).record(batch('consent-kept'));
    const exported = await service.exportOf(Rpc.exportData, { accountId });
    expect(exported).toMatchObject({ ok: true, value: { views: { qr: 3, link: 102, wa: 4 } } });
    if (!exported.ok) return;
    const leads = exported.value['leads'] as Array<{ consentText: string; consentAt: string }>;
    expect(leads[0]).toMatchObject({ consentText: leadConsentText('Lerato'), consentAt: expect.any(String) });
    expect(exported.value['analytics']).toEqual(
      expect.arrayContaining([
        { metric: 'click', key: 'social:facebook', count: 5 },
        { metric: 'card', key: serialOf('consent-kept'), count: 2 },
      ]),
    );
  });

  it('stores the owner’s phone as E.164 on Save', async () => {
    const accountId = await owner('phone-saved', 'DigiShare');
    const own = await service.call(Rpc.getOwnProfile, {}, { accountId });
    if (!own.ok) throw new Error('no profile');
    const saved = await service.call(Rpc.saveProfile, { document: { ...own.value.document, tel: '082 123 4567' } }, { accountId });
    expect(saved).toMatchObject({ ok: true, value: { document: { tel: '+27821234567' } } });
  });

  it('counts a view through a card only for a card of that page: made-up serials and other people’s cards add nothing', async () => {
    const accountId = await owner('cards-checked', 'DigiPlatinum');
    const otherId = await owner('cards-other', 'DigiPlatinum');
    const record = (entries: AnalyticsBatch['entries']) => service.get(AnalyticsQueries).record({ entries, visitors: [] });
    const card = (key: string, count = 1) => ({ username: 'cards-checked', day: today, metric: 'card' as const, key, count });
    const cardRows = async (id: string) =>
      (await service.sql<{ key: string; count: number }>(
        "SELECT key, count FROM profiles.analytics_daily WHERE account_id = $1 AND metric = 'card' ORDER BY key",
        [id],
      )) as Array<{ key: string; count: number }>;

    // 500 well-formed serials nobody was sold, and the other owner's card, on this page's address: nothing is kept.
    await record([
      ...Array.from({ length: 500 }, (_, i) => card(serialOf(`made-up-${i}`))),
      card(serialOf('cards-other'), 7),
      { username: 'cards-checked', day: today, metric: 'view', key: 'nfc', count: 501 },
    ]);
    expect(await cardRows(accountId)).toEqual([]);
    expect(await cardRows(otherId)).toEqual([]);
    // The views themselves still count (the page was seen); only the card rows are refused.
    expect(await service.call(Rpc.getAnalytics, {}, { accountId })).toMatchObject({ ok: true, value: { bySource: { nfc: 501 } } });

    // The page's own card counts.
    await record([card(serialOf('cards-checked'), 3)]);
    expect(await cardRows(accountId)).toEqual([{ key: serialOf('cards-checked'), count: 3 }]);

    // The leader hands the other owner's card to this page: from then on it counts here, and no longer there.
    await assignCards(accountId, [serialOf('cards-other')]);
    await record([card(serialOf('cards-other'), 2), { ...card(serialOf('cards-other'), 5), username: 'cards-other' }]);
    expect(await cardRows(accountId)).toEqual(
      [
        { key: serialOf('cards-checked'), count: 3 },
        { key: serialOf('cards-other'), count: 2 },
      ].sort((a, b) => a.key.localeCompare(b.key)),
    );
    expect(await cardRows(otherId)).toEqual([]);
    // An older assignment arriving late (events in another order) does not move it back.
    await assignCards(otherId, [serialOf('cards-other')], new Date(Date.now() - 60_000));
    await record([{ ...card(serialOf('cards-other'), 5), username: 'cards-other' }]);
    expect(await cardRows(otherId)).toEqual([]);
  });

  it('caps the card serials, click targets and visitors a flood can add to a profile a day (ANALYTICS_KEYS_PER_DAY)', async () => {
    const accountId = await owner('flooded', 'DigiPlatinum');
    const record = (b: Partial<AnalyticsBatch>) => service.get(AnalyticsQueries).record({ entries: [], visitors: [], ...b });
    // A team's many cards all open this page (far more than one page is viewed through in a day).
    const serials = Array.from({ length: KEYS_PER_DAY + 60 }, (_, i) => serialOf(`flooded-card-${i}`));
    await assignCards(accountId, serials);
    const card = (n: number, count = 1) => ({ username: 'flooded', day: today, metric: 'card' as const, key: serials[n]!, count });
    const click = (target: string) => ({ username: 'flooded', day: today, metric: 'click' as const, key: target, count: 1 });
    const count = async (metric: string, day = today) =>
      (
        await service.sql<{ n: number }>(
          'SELECT count(*)::int AS n FROM profiles.analytics_daily WHERE account_id = $1 AND metric = $2 AND day = $3',
          [accountId, metric, day],
        )
      )[0]!.n;

    // The first card first, then every other card in one batch and again in the next.
    await record({ entries: [card(0, 3)] });
    await record({ entries: serials.slice(1).map((_, i) => card(i + 1)) });
    await record({ entries: [card(0, 2), ...serials.slice(1).map((_, i) => card(i + 1))] });
    expect(await count('card')).toBe(KEYS_PER_DAY);
    const report = await service.call(Rpc.getAnalytics, {}, { accountId });
    if (!report.ok) throw new Error('no report');
    expect(report.value.cards).toHaveLength(KEYS_PER_DAY);
    // A serial already counted that day goes on counting.
    expect(report.value.cards[0]).toEqual({ serial: serials[0], views: 5 });
    // Yesterday is another day.
    await record({ entries: [{ ...card(5), day: daysAgo(1) }] });
    expect(await count('card', daysAgo(1))).toBe(1);

    // Click targets the page's beacon may name (social:<any letters>) are capped the same way, apart from the cards.
    const letters = (n: number) => n.toString(26).replace(/./g, (d) => String.fromCharCode(97 + parseInt(d, 26)));
    await record({ entries: [click('social:facebook')] });
    await record({ entries: Array.from({ length: 300 }, (_, i) => click(`social:zz${letters(i)}`)) });
    await record({ entries: [click('social:facebook'), click('social:neverseen')] });
    expect(await count('click')).toBe(KEYS_PER_DAY);
    expect(
      (
        await service.sql<{ count: number }>(
          "SELECT count FROM profiles.analytics_daily WHERE account_id = $1 AND metric = 'click' AND key = 'social:facebook'",
          [accountId],
        )
      )[0]!.count,
    ).toBe(2);
    // Views by source and Save to Contact are not capped (their keys are a fixed few).
    await record({
      entries: [
        { username: 'flooded', day: today, metric: 'view', key: 'qr', count: 1 },
        { username: 'flooded', day: today, metric: 'save', key: '', count: 1 },
      ],
    });
    expect(await count('view')).toBe(1);
    expect(await count('save')).toBe(1);

    // Visitors: at most 20 000 a day (ANALYTICS_VISITORS_PER_DAY's default).
    await record({ visitors: Array.from({ length: 20_050 }, (_, i) => ({ username: 'flooded', day: today, hash: hash(i) })) });
    await record({ visitors: [{ username: 'flooded', day: today, hash: hash(99_999) }] });
    expect(
      (await service.sql('SELECT count(*)::int AS n FROM profiles.analytics_visitors WHERE account_id = $1', [accountId]))[0]!['n'],
    ).toBe(20_000);
  });

  it('forgets which cards opened a deleted account’s page, with its analytics', async () => {
    const accountId = await owner('deleted-cards', 'DigiPlatinum');
    const other = await owner('kept-cards', 'DigiPlatinum');
    await service.handled(
      Events.userDeleted,
      await service.publish(Events.userDeleted, { accountId, deletedAt: new Date().toISOString(), email: null }),
    );
    expect(await service.sql('SELECT 1 FROM profiles.card_serials WHERE account_id = $1', [accountId])).toEqual([]);
    expect(await service.sql('SELECT serial FROM profiles.card_serials WHERE account_id = $1', [other])).toEqual([
      { serial: serialOf('kept-cards') },
    ]);
  });
});
