/**
 * @jest-environment @happy-dom/jest-environment
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { Billing } from '@digicard/contracts';
import { byText, fakeGateway, mount, signIn, waitFor, type Mounted } from '../../../testing/dom';
import { PENDING_POLL_MS } from '../hooks/use-billing';
import { BillingSection } from './billing-section';

// Back from PayFast, the owner's first payment awaits PayFast's notification: Billing reads itself again every few
// seconds until the tier is active, and then tells the editor. Answers that repeat the same pending state must not
// stop it (a query keeps the same object for an equal answer: the polling once hung on that in a browser test).

const subscription = (status: 'pending' | 'active'): NonNullable<Billing['subscription']> => ({
  id: '5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  tier: 'DigiSilver',
  status,
  monthlyPriceCents: 4900,
  paidUntil: status === 'active' ? '2026-12-26T10:00:00.000Z' : null,
  nextBillingDate: status === 'active' ? '2026-12-26' : null,
  graceUntil: null,
  nextTier: null,
});
const billing = (status: 'pending' | 'active'): Billing => ({
  membership: status === 'active' ? 'DigiSilver' : 'DigiShare',
  subscription: subscription(status),
});

let mounted: Mounted | null = null;
let answers: Billing[];
let gateway: ReturnType<typeof fakeGateway>;

beforeEach(() => {
  signIn('user');
  gateway = fakeGateway({
    'GET /api/billing': () => ({ status: 200, body: answers.length > 1 ? answers.shift() : answers[0] }),
    'GET /api/billing/payments': () => ({ status: 200, body: { payments: [], nextCursor: null } }),
    'GET /api/plans': () => ({
      status: 200,
      body: {
        plans: [
          { tier: 'DigiShare', monthlyPriceCents: 0 },
          { tier: 'DigiSilver', monthlyPriceCents: 4900 },
          { tier: 'DigiGold', monthlyPriceCents: 6900 },
          { tier: 'DigiPlatinum', monthlyPriceCents: null },
        ],
      },
    }),
  });
});
afterEach(() => {
  mounted?.unmount();
  mounted = null;
});

describe('Billing while the first payment awaits PayFast', () => {
  it('reads itself again until the tier is active, through repeated pending answers, then tells the editor', async () => {
    answers = [billing('pending'), billing('pending'), billing('pending'), billing('active')];
    const changed = jest.fn();
    mounted = mount(<BillingSection onMembershipChanged={changed} />);
    await waitFor('the pending text', () => byText(mounted!.container, 'Waiting for PayFast to confirm your first DigiSilver payment.'));
    await waitFor(
      'DigiSilver active',
      () => mounted!.container.textContent?.includes('DigiSilver, R49.00 per month. Paid until'),
      PENDING_POLL_MS * 5,
    );
    expect(gateway.count('GET /api/billing')).toBe(4);
    expect(changed).toHaveBeenCalledWith('DigiSilver');
    // Active: no more reads.
    await new Promise((resolve) => setTimeout(resolve, PENDING_POLL_MS + 500));
    expect(gateway.count('GET /api/billing')).toBe(4);
  }, 30_000);
});
