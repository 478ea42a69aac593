import { describe, expect, it } from '@jest/globals';
import { Memberships } from '@digicard/contracts';
import {
  can,
  FREE_TIER,
  includedMembership,
  isFreeTier,
  isSpecial,
  monthlyPrice,
  planPriceText,
  Plans,
  priceOf,
  endOfSaDay,
  saDay,
  saDaysBefore,
  saTimestamp,
  specialGrant,
  specialIncludes,
  specialOfferSummary,
  startOfSaDay,
} from '../src/index.js';

describe('what a special is and what it grants', () => {
  const pvc = { kind: 'special', includedGoldMonths: 12 } as const;
  const bamboo = { kind: 'special', includedGoldMonths: 0 } as const;
  const card = { kind: 'accessory', includedGoldMonths: 0 } as const;

  it('is a special by its kind, with or without months of DigiGold (the Bamboo special is one)', () => {
    expect([pvc, bamboo, card].map(isSpecial)).toEqual([true, true, false]);
  });

  it('grants the most months any line includes (they do not add up), or nothing', () => {
    expect(specialGrant([pvc])).toEqual({ membership: 'DigiGold', months: 12 });
    expect(specialGrant([pvc, { includedGoldMonths: 12 }, bamboo])).toEqual({ membership: 'DigiGold', months: 12 });
    expect(specialGrant([bamboo])).toBeNull();
    expect(specialGrant([])).toBeNull();
  });

  it('says what each special includes, and a special without a DigiGold year says so', () => {
    expect(specialIncludes(pvc)).toBe('Includes 12 months of DigiGold.');
    expect(specialIncludes({ includedGoldMonths: 1 })).toBe('Includes 1 month of DigiGold.');
    expect(specialIncludes(bamboo)).toBe('The card only: no DigiGold membership is included.');
    // A receipt's line says the same in a phrase, and nothing for a card without months.
    expect(includedMembership(pvc)).toBe('includes 12 months of DigiGold');
    expect(includedMembership({ includedGoldMonths: 1 })).toBe('includes 1 month of DigiGold');
    expect(includedMembership(bamboo)).toBeNull();
    expect(specialOfferSummary([pvc, bamboo], 'R69.00')).toBe(
      'Your cards, with 12 months of DigiGold included. After the year, DigiGold is R69.00 a month until you cancel.',
    );
    expect(specialOfferSummary([bamboo], 'R69.00')).toBe(
      'Your cards at their special price. No DigiGold membership is included: you stay on your current package.',
    );
    expect(specialOfferSummary([bamboo], 'R69.00')).not.toMatch(/DigiGold included/);
  });
});

describe('what each tier unlocks', () => {
  it('answers by feature: teams and analytics are DigiPlatinum’s, the CRM DigiGold’s, social links DigiSilver’s', () => {
    expect(Memberships.filter((m) => can(m, 'teams'))).toEqual(['DigiPlatinum']);
    expect(Memberships.filter((m) => can(m, 'analytics'))).toEqual(['DigiPlatinum']);
    expect(Memberships.filter((m) => can(m, 'crm'))).toEqual(['DigiGold', 'DigiPlatinum']);
    expect(Memberships.filter((m) => can(m, 'socialLinks'))).toEqual(['DigiSilver', 'DigiGold', 'DigiPlatinum']);
  });

  it('knows the free tier', () => {
    expect(FREE_TIER).toBe('DigiShare');
    expect(Memberships.filter(isFreeTier)).toEqual(['DigiShare']);
  });
});

describe('the plans', () => {
  it('are priced once: DigiSilver R49, DigiGold R69 a month, DigiPlatinum on request', () => {
    expect(Plans.map((p) => [p.tier, p.monthlyPriceCents])).toEqual([
      ['DigiShare', 0],
      ['DigiSilver', 4900],
      ['DigiGold', 6900],
      ['DigiPlatinum', null],
    ]);
    expect([priceOf('DigiSilver'), priceOf('DigiGold')]).toEqual([4900, 6900]);
    expect(Memberships.map((m) => planPriceText(m, Plans))).toEqual(['Free', 'R49.00 per month', 'R69.00 per month', 'Price on request']);
    expect(monthlyPrice('DigiGold', Plans)).toBe('R69.00');
    expect(monthlyPrice('DigiPlatinum', Plans)).toBeNull();
  });

  it('show the plans they are given (as the payments service serves them)', () => {
    expect(planPriceText('DigiGold', [{ tier: 'DigiGold', monthlyPriceCents: 7900 }])).toBe('R79.00 per month');
  });
});

describe('the South African calendar', () => {
  it('is one date function: the SAST date of an instant (UTC+2 all year), and midnight of a date', () => {
    expect(saDay(new Date('2030-03-14T21:59:59Z'))).toBe('2030-03-14');
    expect(saDay(new Date('2030-03-14T22:00:00Z'))).toBe('2030-03-15');
    expect(saDay(new Date('2030-06-30T23:30:00Z'))).toBe('2030-07-01');
    expect(startOfSaDay('2030-03-15').toISOString()).toBe('2030-03-14T22:00:00.000Z');
    // The same as the time zone database says for Johannesburg, all year.
    const joburg = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Johannesburg', year: 'numeric', month: '2-digit', day: '2-digit' });
    for (let hour = 0; hour < 366 * 24; hour += 7) {
      const at = new Date(Date.UTC(2031, 0, 1) + hour * 3_600_000);
      expect([at.toISOString(), saDay(at)]).toEqual([at.toISOString(), joburg.format(at)]);
    }
  });

  it('counts days back, ends a day at its midnight and writes an instant as SAST: the one place for each', () => {
    const lateEvening = new Date('2030-03-14T21:30:00Z'); // 23:30 in Johannesburg on the 14th
    expect(saDaysBefore(0, lateEvening)).toBe('2030-03-14');
    expect(saDaysBefore(29, lateEvening)).toBe('2030-02-13');
    expect(saDaysBefore(1, new Date('2030-03-14T22:00:00Z'))).toBe('2030-03-14'); // already the 15th there
    expect(endOfSaDay(lateEvening).toISOString()).toBe('2030-03-14T22:00:00.000Z');
    expect(endOfSaDay(new Date('2030-03-14T22:00:00Z')).toISOString()).toBe('2030-03-15T22:00:00.000Z');
    expect(saDay(new Date(endOfSaDay(lateEvening).getTime() - 1))).toBe('2030-03-14');
    expect(saTimestamp(new Date('2026-11-23T14:00:00.250Z'))).toBe('2026-11-23T16:00:00+02:00');
    expect(saTimestamp(new Date('2026-11-23T23:15:00Z'))).toBe('2026-11-24T01:15:00+02:00');
  });
});
