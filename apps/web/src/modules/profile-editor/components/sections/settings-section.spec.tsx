/**
 * @jest-environment @happy-dom/jest-environment
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { Membership } from '@digicard/contracts';
import { act } from 'react';
import { MemoryRouter } from 'react-router';
import { fakeGateway, mount, signIn, waitFor, type Mounted } from '../../../../testing/dom';
import { SettingsSection } from './settings-section';

// The dashboard's membership selector (product spec, section 2: "Membership selector"; section 4: "Membership:
// changing writes immediately; choosing DigiSilver or DigiGold when the user is not a partner starts a payment
// redirect"), with the tiers and prices of section 1's table and decisions.md's "the same checkout as the Billing
// section's buttons starts from the selector".

const PAYFAST = 'https://sandbox.payfast.co.za/eng/process?m_payment_id=5c1d2e3f';

let mounted: Mounted | null = null;
let gateway: ReturnType<typeof fakeGateway>;
let assign: jest.Mock<(url: string | URL) => void>;
let changeSettings: jest.Mock<(change: { membership?: Membership; isPublic?: boolean }) => Promise<{ ok: true }>>;

beforeEach(() => {
  signIn();
  gateway = fakeGateway({
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
    'POST /api/billing/membership': () => ({ status: 201, body: { redirectUrl: PAYFAST } }),
  });
  assign = jest.fn<(url: string | URL) => void>();
  jest.spyOn(window.location, 'assign').mockImplementation(assign);
  changeSettings = jest.fn(() => Promise.resolve({ ok: true as const }));
});
afterEach(() => {
  mounted?.unmount();
  mounted = null;
  jest.restoreAllMocks();
});

function render(isPartner: boolean) {
  mounted = mount(
    <MemoryRouter>
      <SettingsSection
        membership="DigiShare"
        isPartner={isPartner}
        isPublic
        isVerified
        changeSettings={changeSettings}
        renamed={() => undefined}
      />
    </MemoryRouter>,
  );
}

/** The `<select>` labelled Membership. */
function selector(): HTMLSelectElement {
  const label = [...mounted!.container.querySelectorAll('label')].find((l) => l.textContent === 'Membership');
  const select = label ? document.getElementById(label.htmlFor) : null;
  if (!(select instanceof HTMLSelectElement)) throw new Error('No <select> labelled Membership.');
  return select;
}

function choose(select: HTMLSelectElement, value: string): void {
  act(() => {
    Reflect.set(HTMLSelectElement.prototype, 'value', value, select);
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

const options = () => [...selector().options].map((o) => [o.value, o.textContent]);

describe('the membership selector', () => {
  it('is a <select> of the four tiers with the prices of the spec’s table, the current tier chosen', async () => {
    render(false);
    // Section 1: DigiShare free (default), DigiSilver R49.00 per month, DigiGold R69.00 per month, DigiPlatinum price on request.
    await waitFor('the prices', () => options()[1]?.[1] === 'DigiSilver (R49.00 per month)');
    expect(options()).toEqual([
      ['DigiShare', 'DigiShare (Free)'],
      ['DigiSilver', 'DigiSilver (R49.00 per month)'],
      ['DigiGold', 'DigiGold (R69.00 per month)'],
      ['DigiPlatinum', 'DigiPlatinum (Price on request)'],
    ]);
    expect(selector().value).toBe('DigiShare');
  });

  it('choosing DigiGold when the owner is not a partner starts the PayFast checkout (as Billing does), writing nothing itself', async () => {
    render(false);
    choose(selector(), 'DigiGold');
    await waitFor('the redirect to PayFast', () => assign.mock.calls.length > 0);
    expect(assign).toHaveBeenCalledWith(PAYFAST);
    expect(gateway.requests.filter((r) => r.method === 'POST').map((r) => [r.path, r.body])).toEqual([
      ['/api/billing/membership', { tier: 'DigiGold' }],
    ]);
    expect(changeSettings).not.toHaveBeenCalled();
  });

  it('a partner’s change is written at once, with no payment', async () => {
    render(true);
    choose(selector(), 'DigiSilver');
    await waitFor('the change', () => mounted!.container.textContent?.includes('Your membership is now DigiSilver.'));
    expect(changeSettings).toHaveBeenCalledWith({ membership: 'DigiSilver' });
    expect(gateway.count('POST /api/billing/membership')).toBe(0);
    expect(assign).not.toHaveBeenCalled();
  });
});
