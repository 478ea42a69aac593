/**
 * @jest-environment @happy-dom/jest-environment
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { sampleOrder } from '../../../testing/orders';
import { alerts, byText, click, deferred, fakeGateway, mount, signIn, waitFor, type FakeAnswer, type Mounted } from '../../../testing/dom';
import { SessionContext } from '../../session/hooks/use-session';
import { sessionStore } from '../../session/utils/session-store';
import { UnpaidOrders } from './unpaid-orders';

// The orders a new account placed with its sign-up, after its verification link: read through TanStack Query (the
// orders' query, as the dashboard reads them), shown only when one awaits payment; "Pay for your cards" is busy while
// PayFast's request is asked for, and a refusal is said under the list with the button usable again.

const ORDER_ID = '3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a98';
const order = (status: string, id = ORDER_ID, reference = 'DC-7K3M9Q') => sampleOrder(status, id, reference);

let mounted: Mounted | null = null;
let gateway: ReturnType<typeof fakeGateway>;
let orders: unknown[];
let payAnswer: () => FakeAnswer | Promise<FakeAnswer>;

beforeEach(() => {
  signIn();
  orders = [];
  payAnswer = () => ({ status: 409, body: { statusCode: 409, code: 'CONFLICT', message: 'This order has been paid already.' } });
  gateway = fakeGateway({
    'GET /api/orders': () => ({ status: 200, body: { orders, nextCursor: null } }),
    [`POST /api/orders/${ORDER_ID}/payment`]: () => payAnswer(),
  });
});
afterEach(() => {
  mounted?.unmount();
  mounted = null;
});

const show = () =>
  mount(
    <SessionContext value={sessionStore.get()}>
      <UnpaidOrders />
    </SessionContext>,
  );

describe('UnpaidOrders', () => {
  it('shows nothing when no order awaits payment', async () => {
    orders = [order('paid', '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a', 'DC-AAAAAA')];
    mounted = show();
    await waitFor('the orders', () => gateway.count('GET /api/orders') === 1);
    await waitFor('the answer', () => mounted!.client.getQueryData(['orders']) !== undefined);
    expect(mounted.container.innerHTML).toBe('');
  });

  it('shows an order awaiting payment under its title, with "Pay for your cards"', async () => {
    orders = [order('awaiting-payment'), order('paid', '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a', 'DC-AAAAAA')];
    mounted = show();
    const title = await waitFor('the title', () => byText(mounted!.container, 'Your order awaits payment', 'h2'));
    expect(title.id).toBe('unpaid-orders-title');
    expect(byText(mounted.container, 'Order DC-7K3M9Q: Gold card')).not.toBeNull();
    expect(byText(mounted.container, 'Order DC-AAAAAA: Gold card')).toBeNull();
    const pay = byText<HTMLButtonElement>(mounted.container, 'Pay for your cards', 'button');
    expect(pay?.disabled).toBe(false);
    expect(gateway.calls).toEqual(['GET /api/orders']);
  });

  it('a refused payment is said under the list, and the button can be pressed again', async () => {
    orders = [order('awaiting-payment')];
    const later = deferred<FakeAnswer>();
    payAnswer = () => later.promise;
    mounted = show();
    await click(await waitFor('the button', () => byText(mounted!.container, 'Pay for your cards', 'button')));
    const busy = await waitFor('the busy button', () =>
      byText<HTMLButtonElement>(mounted!.container, 'Taking you to PayFast...', 'button'),
    );
    expect(busy.disabled).toBe(true);
    later.release({ status: 409, body: { statusCode: 409, code: 'CONFLICT', message: 'This order has been paid already.' } });
    await waitFor('the refusal', () => alerts(mounted!.container).includes('This order has been paid already.'));
    expect(byText<HTMLButtonElement>(mounted.container, 'Pay for your cards', 'button')?.disabled).toBe(false);

    // Pressed again: the refusal goes while the new request is on its way.
    const again = deferred<FakeAnswer>();
    payAnswer = () => again.promise;
    await click(byText(mounted.container, 'Pay for your cards', 'button'));
    await waitFor('the busy button', () => byText(mounted!.container, 'Taking you to PayFast...', 'button'));
    expect(alerts(mounted.container)).toEqual([]);
    again.release({ status: 409, body: { statusCode: 409, code: 'CONFLICT', message: 'This order has been paid already.' } });
    await waitFor('the refusal', () => alerts(mounted!.container).includes('This order has been paid already.'));
    expect(gateway.count(`POST /api/orders/${ORDER_ID}/payment`)).toBe(2);
  });

  it('shows nothing while no account is signed in (it reads once the link’s sign-in is known)', async () => {
    sessionStore.setSignedOut();
    orders = [order('awaiting-payment')];
    mounted = show();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(mounted.container.innerHTML).toBe('');
    expect(gateway.calls).toEqual([]);
  });
});
