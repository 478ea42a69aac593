/**
 * @jest-environment @happy-dom/jest-environment
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { OrderStatus, PrintOrder } from '@digicard/contracts';
import { byText, click, errorOf, fakeGateway, field, mount, signIn, type, waitFor, type Mounted } from '../../../testing/dom';
import { queryClient } from '../../api/query-client';
import PrintConsole, { MoveFormSchema } from './print-console';

// The print console's forms (react-hook-form over RecordCardSchema and MoveOrderSchema): a card's NFC UID and the
// shipping details are checked before anything is sent, and sent as the contract makes them.

const ORDER_ID = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';
const order = (status: OrderStatus): PrintOrder => ({
  id: ORDER_ID,
  reference: 'DC-7K3M9Q',
  status,
  lines: [
    {
      itemId: 'pvc-white',
      kind: 'accessory',
      name: 'PVC NFC Card, White',
      quantity: 1,
      unitPriceCents: 29900,
      lineTotalCents: 29900,
      includedGoldMonths: 0,
      colour: 'White',
    },
  ],
  totalCents: 29900,
  createdAt: '2026-11-20T08:00:00.000Z',
  paidAt: '2026-11-20T08:05:00.000Z',
  proof: { status: 'ready', version: 1, attempts: 1, error: null, renderedAt: '2026-11-20T08:06:00.000Z' },
  cards: [
    {
      serial: 'DC0001',
      url: 'https://digicard.example/c/DC0001',
      material: 'PVC',
      colour: 'White',
      nfcUid: null,
      disabled: false,
      assignedTo: null,
    },
  ],
  history: [],
  shipment: null,
  customer: { name: 'Nomsa Dube', username: 'nomsa' },
});

let mounted: Mounted | null = null;
let gateway: ReturnType<typeof fakeGateway>;
let shown: PrintOrder;

beforeEach(() => {
  signIn('user');
  gateway = fakeGateway({
    'GET /api/print/orders': () => ({ status: 200, body: { orders: [shown], nextCursor: null } }),
    [`PUT /api/print/orders/${ORDER_ID}/cards/DC0001`]: (request) => {
      const { nfcUid } = request.body as { nfcUid: string };
      shown = { ...shown, cards: shown.cards.map((c) => ({ ...c, nfcUid })) };
      return { status: 200, body: shown };
    },
    [`POST /api/print/orders/${ORDER_ID}/moves`]: (request) => {
      const move = request.body as { to: OrderStatus; courier?: string; trackingNumber?: string };
      shown = {
        ...shown,
        status: move.to,
        shipment: move.courier ? { courier: move.courier, trackingNumber: move.trackingNumber ?? '' } : null,
      };
      return { status: 200, body: shown };
    },
  });
});
afterEach(() => {
  mounted?.unmount();
  mounted = null;
  queryClient.clear();
});

const page = () => mounted!.container;

describe('the print console’s forms', () => {
  it('checks a card’s NFC UID before sending it, then sends it as the contract writes it', async () => {
    shown = order('printing');
    mounted = mount(<PrintConsole />);
    const uid = await waitFor('the UID field', () => page().querySelector<HTMLInputElement>('#uid-DC0001'));
    type(uid, '04:a2:3b');
    await click(byText(page(), 'Save', 'button'));
    await waitFor('the UID’s error', () => errorOf(uid) === 'An NFC UID is 4, 7 or 10 bytes in hex, e.g. 04:A2:3B:1C:5D:80:00.');
    expect(gateway.count(`PUT /api/print/orders/${ORDER_ID}/cards/DC0001`)).toBe(0);

    type(uid, '04:a2:3b:1c:5d:80:00');
    await click(byText(page(), 'Save', 'button'));
    await waitFor('the UID saved', () => gateway.count(`PUT /api/print/orders/${ORDER_ID}/cards/DC0001`) === 1);
    expect(gateway.requests.find((r) => r.method === 'PUT')?.body).toEqual({ nfcUid: '04A23B1C5D8000' });
  });

  it('shipping needs the courier and the tracking number, each said on its field; then they are sent with the move', async () => {
    shown = order('nfc-encoded');
    mounted = mount(<PrintConsole />);
    await waitFor('the move', () => byText(page(), 'Mark shipped', 'button'));
    await click(byText(page(), 'Mark shipped', 'button'));
    await waitFor('the errors', () => errorOf(field(page(), 'Courier')) === 'Please name the courier.');
    expect(errorOf(field(page(), 'Tracking number'))).toBe('Please enter the tracking number.');
    expect(gateway.count(`POST /api/print/orders/${ORDER_ID}/moves`)).toBe(0);

    type(field(page(), 'Courier'), 'The Courier Guy');
    type(field(page(), 'Tracking number'), 'TCG-778812');
    await click(byText(page(), 'Mark shipped', 'button'));
    await waitFor('shipped', () => byText(page(), 'Courier: The Courier Guy · Tracking number: TCG-778812'));
    expect(gateway.requests.find((r) => r.method === 'POST')?.body).toEqual({
      to: 'shipped',
      courier: 'The Courier Guy',
      trackingNumber: 'TCG-778812',
    });
  });
});

describe('MoveFormSchema', () => {
  it('leaves a blank note, and the courier and tracking number of any move but shipping, out', () => {
    expect(MoveFormSchema.parse({ to: 'printing', note: '  ', courier: 'Left over', trackingNumber: 'X1' })).toEqual({ to: 'printing' });
    expect(MoveFormSchema.parse({ to: 'cancelled', note: 'Asked by the buyer', courier: '', trackingNumber: '' })).toEqual({
      to: 'cancelled',
      note: 'Asked by the buyer',
    });
  });
});
