import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import {
  CardMessages,
  Events,
  ProfileDefaults,
  Rpc,
  type OrderDetail,
  type OwnProfile,
  type PaymentCompleted,
  type Role,
} from '@digicard/contracts';
import { connectNats, type NatsConnection } from '@digicard/messaging';
import { InProcessService, type Caller } from '@digicard/service-testing';
import { waitFor } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { ordersService } from '../src/service.js';
import { ordersEnv } from './orders-env.js';
import { answerAccountsAsIdentity } from './identity-stand-in.js';

// The print side of orders in this process, on its own database and NATS server, with the real `proof-render`
// queue on Redis and its worker. Profiles is a stand-in on NATS answering as profiles does (profileOfAccount, mediaOfAccount).

let service: InProcessService<Config>;
let profilesStandIn: NatsConnection;
const environment = ordersEnv();
const work = mkdtempSync(join(tmpdir(), 'proof-test-'));

/** Profiles the stand-in knows; an account not here gets 404, one in `failing` a 503-like error every time. */
const profiles = new Map<string, OwnProfile>();
const failing = new Set<string>();
let logoPng: Buffer;

const profileFor = (firstName: string, lastName: string, extra: Partial<OwnProfile['document']> = {}): OwnProfile => ({
  username: `${firstName.toLowerCase()}-${randomUUID().slice(0, 6)}`,
  firstName,
  lastName,
  email: `${firstName.toLowerCase()}@example.co.za`,
  membership: 'DigiGold',
  isVerified: true,
  isPublic: true,
  document: {
    ...ProfileDefaults,
    title: 'Sales Director',
    businessName: 'Acme Logistics',
    businessLogo: '/media/logo_abcdefghij.webp',
    ...extra,
  },
  updatedAt: new Date().toISOString(),
});

async function startProfilesStandIn(natsUrl: string): Promise<NatsConnection> {
  const nc = await connectNats(natsUrl, 'profiles-stand-in');
  nc.subscribe(Rpc.profileOfAccount.subject, {
    callback: (_error, msg) => {
      const packet = msg.json<{ id: string; data: { body: { accountId: string } } }>();
      const userId = packet.data.body.accountId;
      const profile = profiles.get(userId);
      const reply = failing.has(userId)
        ? { id: packet.id, err: { statusCode: 500, code: 'INTERNAL', message: 'profiles is having a bad day' }, isDisposed: true }
        : profile
          ? { id: packet.id, response: profile, isDisposed: true }
          : { id: packet.id, err: { statusCode: 404, code: 'NOT_FOUND', message: 'Profile not found.' }, isDisposed: true };
      msg.respond(JSON.stringify(reply));
    },
  });
  // STAND-IN FOR IDENTITY: the role identity holds for the caller.
  answerAccountsAsIdentity(nc, (id) => (identityFailing.has(id) ? 'away' : (roles.get(id) ?? 'user')));
  // The logo of a known account's profile, asked by naming that account in the body: a request posing as someone in
  // `meta.userId`, or naming an account without a profile, finds nothing (no logo on the proof).
  nc.subscribe(Rpc.mediaOfAccount.subject, {
    callback: (_error, msg) => {
      const packet = msg.json<{ id: string; data: { meta: { userId: string | null }; body: { accountId: string } } }>();
      const found = packet.data.meta.userId === null && profiles.has(packet.data.body.accountId);
      const reply = found
        ? { id: packet.id, response: { contentType: 'image/png', dataBase64: logoPng.toString('base64') }, isDisposed: true }
        : { id: packet.id, err: { statusCode: 404, code: 'NOT_FOUND', message: 'No such image.' }, isDisposed: true };
      msg.respond(JSON.stringify(reply));
    },
  });
  await nc.flush();
  return nc;
}

beforeAll(async () => {
  logoPng = await sharp({ create: { width: 240, height: 80, channels: 3, background: '#0b5fff' } })
    .png()
    .toBuffer();
  service = await InProcessService.start(ordersService, environment.env);
  profilesStandIn = await startProfilesStandIn(service.natsUrl);
});

afterAll(async () => {
  await profilesStandIn?.close();
  await service?.stop();
  await environment.cleanUp();
  rmSync(work, { recursive: true, force: true });
});

const owner = (): Caller & { accountId: string } => ({ accountId: randomUUID(), role: 'user' });
const printer: Caller = { accountId: randomUUID(), role: 'print' };
const staff: Caller = { accountId: randomUUID(), role: 'staff' };
/** The roles identity holds (the stand-in's records): every other account is a user. */
const roles = new Map<string, Role>([
  [printer!.accountId, 'print'],
  [staff!.accountId, 'staff'],
]);
/** Accounts whose identity lookup fails (identity away). */
const identityFailing = new Set<string>();

function ok<T>(answer: { ok: true; value: T } | { ok: false; status: number; message: string }): T {
  if (!answer.ok) throw new Error(`refused ${answer.status}: ${answer.message}`);
  return answer.value;
}

/** An order of `items` by a new owner with a profile, paid (payments' event), and its detail once `until` holds. */
async function paidOrder(
  items: Array<{ id: string; quantity: number; colour?: string }>,
  who = owner(),
  profile = profileFor('Thabo', 'Nkosi'),
) {
  profiles.set(who.accountId, profile);
  const order = ok(await service.call(Rpc.placeOrder, { items }, who));
  const payment: PaymentCompleted = {
    paymentId: randomUUID(),
    accountId: who.accountId,
    kind: 'order',
    orderId: order.id,
    subscriptionId: null,
    amountCents: order.totalCents,
    pfPaymentId: String(Date.now()),
    completedAt: new Date().toISOString(),
    tier: null,
    paidUntil: null,
  };
  await service.publish(Events.paymentCompleted, payment);
  return { who, order, profile };
}

const detailOf = async (who: Caller, orderId: string): Promise<OrderDetail> =>
  ok(await service.call(Rpc.listOrderDetails, {}, who)).orders.find((o) => o.id === orderId)!;

const waitForStatus = (who: Caller, orderId: string, what: (o: OrderDetail) => boolean, timeoutMs = 20_000) =>
  waitFor(
    `order ${orderId}`,
    async () => {
      const detail = await detailOf(who, orderId);
      return detail && what(detail) ? detail : null;
    },
    timeoutMs,
  );

const file = async (who: Caller, orderId: string, kind: 'pdf' | 'png', print = false): Promise<Buffer> => {
  const answer = print
    ? await service.call(Rpc.printProofFile, { orderId, kind }, who)
    : await service.call(Rpc.ownProofFile, { orderId, kind }, who);
  return Buffer.from(ok(answer).dataBase64, 'base64');
};

describe('proof on payment', () => {
  it('renders a print-ready PDF (85.6 x 54 mm + 3 mm bleed, front and back per card) whose QR opens the card URL, and a PNG', async () => {
    const { who, order } = await paidOrder([{ id: 'pvc-card', quantity: 2 }]);
    const ready = await waitForStatus(who, order.id, (o) => o.status === 'proof-ready');
    expect(ready.proof).toMatchObject({ status: 'ready', version: 1, error: null });
    expect(ready.cards).toHaveLength(2);
    expect(ready.cards[0]).toMatchObject({ material: 'PVC', colour: 'Black', nfcUid: null, disabled: false });
    expect(ready.cards[0]!.url).toBe(`http://cards.digicard.test/c/${ready.cards[0]!.serial}`);
    expect(ready.history.map((h) => [h.from, h.to, h.by])).toEqual([
      ['awaiting-payment', 'paid', 'system'],
      ['paid', 'proof-ready', 'system'],
    ]);

    const pdfPath = join(work, 'proof.pdf');
    writeFileSync(pdfPath, await file(who, order.id, 'pdf'));
    const info = execFileSync('pdfinfo', ['-box', pdfPath], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+4/);
    // (85.6 + 6) mm x (54 + 6) mm in points; the trim box 3 mm (8.50 pt) inside.
    expect(info).toMatch(/Page size:\s+259\.65\d* x 170\.07\d* pts/);
    expect(info).toMatch(/TrimBox:\s+8\.50\s+8\.50\s+251\.15\s+161\.57/);
    const text = execFileSync('pdftotext', [pdfPath, '-'], { encoding: 'utf8' });
    expect(text).toContain('Thabo Nkosi');
    expect(text).toContain('Sales Director');
    expect(text).toContain('Acme Logistics');
    // Each back (pages 2 and 4) carries its own card's QR code.
    execFileSync('pdftoppm', ['-r', '400', '-png', pdfPath, join(work, 'page')]);
    const pages = readdirSync(work)
      .filter((f) => f.startsWith('page'))
      .sort();
    expect(pages).toHaveLength(4);
    const backs = pages.filter((_, i) => i % 2 === 1);
    const decoded = backs.map((p) => execFileSync('zbarimg', ['-q', '--raw', join(work, p)], { encoding: 'utf8' }).trim());
    expect(decoded).toEqual(ready.cards.map((c) => c.url));

    const png = await sharp(await file(who, order.id, 'png')).metadata();
    expect(png.format).toBe('png');
    expect(png.width).toBeGreaterThan(600);
    const events = (await service.recordedEvents<{ orderId: string; version: number }>(Events.proofReady.subject)).filter(
      (e) => e.data.orderId === order.id,
    );
    expect(events.map((e) => e.data.version)).toEqual([1]);
  });

  it('a profile change before approval renders the proof again; after approval it does not', async () => {
    const { who, order, profile } = await paidOrder([{ id: 'bamboo-card', quantity: 1 }], owner(), profileFor('Lerato', 'Molefe'));
    await waitForStatus(who, order.id, (o) => o.proof?.status === 'ready');
    profiles.set(who.accountId, { ...profile, document: { ...profile.document, title: 'Chief Executive' } });
    await service.publish(Events.profileUpdated, {
      accountId: who.accountId,
      username: profile.username,
      updatedAt: new Date().toISOString(),
    });
    const again = await waitForStatus(who, order.id, (o) => o.proof?.version === 2 && o.proof.status === 'ready');
    expect(again.cards[0]).toMatchObject({ material: 'Bamboo', colour: 'Bamboo' });
    const pdfPath = join(work, 'again.pdf');
    writeFileSync(pdfPath, await file(who, order.id, 'pdf'));
    expect(execFileSync('pdftotext', [pdfPath, '-'], { encoding: 'utf8' })).toContain('Chief Executive');

    ok(await service.call(Rpc.approveProof, { orderId: order.id }, who));
    const id = await service.publish(Events.profileUpdated, {
      accountId: who.accountId,
      username: profile.username,
      updatedAt: new Date().toISOString(),
    });
    await service.handled(Events.profileUpdated, id);
    expect((await detailOf(who, order.id)).proof).toMatchObject({ status: 'ready', version: 2 });
  });

  it('a render that keeps failing is retried with backoff, then shows as failed (never silent); the print team renders it again', async () => {
    const who = owner();
    failing.add(who.accountId);
    const { order } = await paidOrder([{ id: 'ssteel-card', quantity: 1 }], who);
    const failed = await waitForStatus(who, order.id, (o) => o.proof?.status === 'failed', 30_000);
    expect(failed.status).toBe('paid');
    expect(failed.proof).toMatchObject({ status: 'failed', attempts: 5, error: expect.stringContaining('profiles.profile.get') });
    const queue = ok(await service.call(Rpc.printQueue, {}, printer)).orders.find((o) => o.id === order.id);
    expect(queue?.proof?.status).toBe('failed');
    expect(await service.call(Rpc.approveProof, { orderId: order.id }, who)).toMatchObject({
      ok: false,
      status: 409,
      code: 'ORDER_MOVE_NOT_ALLOWED',
    });
    // Support sees it too (a read view of failed proofs only: a ready one is not in it).
    const failedForStaff = ok(await service.call(Rpc.staffFailedProofs, {}, staff)).orders;
    expect(failedForStaff.map((o) => o.id)).toContain(order.id);
    expect(failedForStaff.every((o) => o.proof?.status === 'failed')).toBe(true);
    expect(failedForStaff.find((o) => o.id === order.id)?.proof).toMatchObject({
      attempts: 5,
      error: expect.stringContaining('profiles.profile.get'),
    });

    failing.delete(who.accountId);
    const rendering = ok(await service.call(Rpc.rerenderProof, { orderId: order.id }, printer));
    expect(rendering.proof?.status).toBe('rendering');
    const ready = await waitForStatus(who, order.id, (o) => o.status === 'proof-ready');
    expect(ready.proof).toMatchObject({ status: 'ready', version: 1, error: null });
    expect(ready.cards[0]).toMatchObject({ material: 'Stainless steel', colour: 'Silver' });
    expect(ok(await service.call(Rpc.staffFailedProofs, {}, staff)).orders.map((o) => o.id)).not.toContain(order.id);
  });

  it('staff render a failed proof again from their console; nobody else may use the staff view', async () => {
    const who = owner();
    failing.add(who.accountId);
    const { order } = await paidOrder([{ id: 'pvc-card', quantity: 1, colour: 'White' }], who);
    await waitForStatus(who, order.id, (o) => o.proof?.status === 'failed', 30_000);
    for (const caller of [
      who,
      printer,
      { accountId: randomUUID(), role: 'teamMember' as const },
      { accountId: randomUUID(), role: 'teamLeader' as const },
    ]) {
      expect(await service.call(Rpc.staffFailedProofs, {}, caller)).toMatchObject({ ok: false, status: 403 });
      expect(await service.call(Rpc.staffRerenderProof, { orderId: order.id }, caller)).toMatchObject({ ok: false, status: 403 });
    }
    expect(await service.call(Rpc.staffFailedProofs, {}, null)).toMatchObject({ ok: false, status: 401 });
    expect(await service.call(Rpc.staffRerenderProof, { orderId: order.id }, null)).toMatchObject({ ok: false, status: 401 });
    expect(await service.call(Rpc.staffRerenderProof, { orderId: randomUUID() }, staff)).toMatchObject({ ok: false, status: 404 });
    expect((await detailOf(who, order.id)).proof?.status).toBe('failed');

    failing.delete(who.accountId);
    expect(ok(await service.call(Rpc.staffRerenderProof, { orderId: order.id }, staff)).proof?.status).toBe('rendering');
    const ready = await waitForStatus(who, order.id, (o) => o.status === 'proof-ready');
    expect(ready.cards[0]).toMatchObject({ material: 'PVC', colour: 'White' });
    ok(await service.call(Rpc.approveProof, { orderId: order.id }, who));
    expect(await service.call(Rpc.staffRerenderProof, { orderId: order.id }, staff)).toMatchObject({ ok: false, status: 409 });
  });
});

describe('the colour the buyer chose', () => {
  it('is checked against the item (400 on items.N.colour), kept on the line, given to each card and drawn on the proof', async () => {
    const who = owner();
    profiles.set(who.accountId, profileFor('Naledi', 'Mokoena'));
    expect(await service.call(Rpc.placeOrder, { items: [{ id: 'pvc-card', colour: 'Gold', quantity: 1 }] }, who)).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { 'items.0.colour': ['The PVC NFC Card comes in Black or White.'] },
    });
    expect(
      await service.call(
        Rpc.placeOrder,
        {
          items: [
            { id: 'bamboo-card', quantity: 1 },
            { id: 'ssteel-card', colour: 'Rose', quantity: 1 },
          ],
        },
        who,
      ),
    ).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { 'items.1.colour': ['The Stainless Steel NFC Card comes in Silver, Gold or Black.'] },
    });
    // Spelt as the catalogue spells it; a line without a colour (a basket kept from before) gets the item's first.
    const placed = ok(
      await service.call(
        Rpc.placeOrder,
        {
          items: [
            { id: 'ssteel-card', colour: 'gold', quantity: 1 },
            { id: 'pvc-card', quantity: 1 },
          ],
        },
        who,
      ),
    );
    expect(placed.lines.map((l) => [l.itemId, l.colour])).toEqual([
      ['ssteel-card', 'Gold'],
      ['pvc-card', 'Black'],
    ]);

    const { order } = await paidOrder(
      [
        { id: 'ssteel-card', colour: 'Black', quantity: 1 },
        { id: 'pvc-card', colour: 'White', quantity: 1 },
      ],
      who,
      profiles.get(who.accountId),
    );
    const ready = await waitForStatus(who, order.id, (o) => o.status === 'proof-ready');
    expect(ready.lines.map((l) => l.colour)).toEqual(['Black', 'White']);
    expect(ready.cards.map((c) => [c.material, c.colour])).toEqual([
      ['Stainless steel', 'Black'],
      ['PVC', 'White'],
    ]);
    const printed = ok(await service.call(Rpc.printOrder, { orderId: order.id }, printer));
    expect(printed.lines.map((l) => l.colour)).toEqual(['Black', 'White']);
    const paid = (await service.recordedEvents<{ orderId: string; lines: Array<{ colour: string }> }>(Events.orderPaid.subject)).find(
      (e) => e.data.orderId === order.id,
    );
    expect(paid?.data.lines.map((l) => l.colour)).toEqual(['Black', 'White']);

    // Page 1 is the black steel card's front, page 3 the white PVC card's: their surface (read in the bleed, 1.5 mm in)
    // is the finish's.
    const pdfPath = join(work, 'colours.pdf');
    writeFileSync(pdfPath, await file(who, order.id, 'pdf'));
    execFileSync('pdftoppm', ['-r', '50', '-png', pdfPath, join(work, 'colours')]);
    const corner = async (page: string) => {
      const { data } = await sharp(join(work, page))
        .extract({ left: 3, top: 3, width: 1, height: 1 })
        .raw()
        .toBuffer({ resolveWithObject: true });
      return [data[0]!, data[1]!, data[2]!];
    };
    const pages = readdirSync(work)
      .filter((f) => f.startsWith('colours-'))
      .sort();
    expect(pages).toHaveLength(4);
    const steel = await corner(pages[0]!);
    const pvc = await corner(pages[2]!);
    expect(Math.max(...steel)).toBeLessThan(60);
    expect(Math.min(...pvc)).toBeGreaterThan(230);

    const slip = ok(await service.call(Rpc.packingSlip, { orderId: order.id }, printer));
    const slipPath = join(work, 'colours-slip.pdf');
    writeFileSync(slipPath, Buffer.from(slip.dataBase64, 'base64'));
    const slipText = execFileSync('pdftotext', [slipPath, '-'], { encoding: 'utf8' });
    expect(slipText).toContain('1 x Stainless Steel NFC Card, Black');
    expect(slipText).toContain('1 x PVC NFC Card, White');
  });
});

describe('order states', () => {
  it('goes from paid to delivered, each move recorded (who, when, note) and published; invalid moves refused with 409', async () => {
    const { who, order } = await paidOrder([{ id: 'pvc-card', quantity: 2 }]);
    const ready = await waitForStatus(who, order.id, (o) => o.status === 'proof-ready');
    const [first, second] = ready.cards.map((c) => c.serial);

    // The print team cannot skip the owner's approval; the owner cannot print.
    expect(await service.call(Rpc.moveOrder, { orderId: order.id, to: 'printing' }, printer)).toMatchObject({
      ok: false,
      status: 409,
      code: 'ORDER_MOVE_NOT_ALLOWED',
      message: 'An order that is proof ready cannot become printing.',
    });
    // Changes need a note; the note is kept; the proof renders again by the system, then the owner approves.
    expect(await service.call(Rpc.requestProofChanges, { orderId: order.id, note: '  ' }, who)).toMatchObject({ ok: false, status: 400 });
    const changes = ok(await service.call(Rpc.requestProofChanges, { orderId: order.id, note: 'Please use my maiden name.' }, who));
    expect(changes.status).toBe('changes-requested');
    expect(await service.call(Rpc.approveProof, { orderId: order.id }, who)).toMatchObject({ ok: false, status: 409 });
    ok(await service.call(Rpc.rerenderProof, { orderId: order.id }, printer));
    await waitForStatus(who, order.id, (o) => o.status === 'proof-ready' && o.proof?.status === 'ready');
    expect(await service.call(Rpc.approveProof, { orderId: order.id }, owner())).toMatchObject({ ok: false, status: 404 });
    expect(ok(await service.call(Rpc.approveProof, { orderId: order.id }, who)).status).toBe('approved');
    expect(await service.call(Rpc.approveProof, { orderId: order.id }, who)).toMatchObject({ ok: false, status: 409 });
    expect(await service.call(Rpc.rerenderProof, { orderId: order.id }, printer)).toMatchObject({ ok: false, status: 409 });

    expect(ok(await service.call(Rpc.moveOrder, { orderId: order.id, to: 'printing', note: 'Batch 14' }, printer)).status).toBe('printing');
    expect(await service.call(Rpc.moveOrder, { orderId: order.id, to: 'nfc-encoded' }, printer)).toMatchObject({
      ok: false,
      status: 409,
      message: 'Record the NFC UID of every card first (2 still without one).',
    });
    expect(await service.call(Rpc.recordCard, { orderId: order.id, serial: first!, nfcUid: 'not hex' }, printer)).toMatchObject({
      ok: false,
      status: 400,
    });
    const recorded = ok(await service.call(Rpc.recordCard, { orderId: order.id, serial: first!, nfcUid: '04:a2:3b:1c:5d:80:00' }, printer));
    expect(recorded.cards[0]!.nfcUid).toBe('04A23B1C5D8000');
    expect(await service.call(Rpc.recordCard, { orderId: order.id, serial: second!, nfcUid: '04A23B1C5D8000' }, printer)).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(await service.call(Rpc.recordCard, { orderId: order.id, serial: 'ZZZZZZZZ', nfcUid: '04A23B1C5D8001' }, printer)).toMatchObject({
      ok: false,
      status: 404,
    });
    ok(await service.call(Rpc.recordCard, { orderId: order.id, serial: second!, nfcUid: '04A23B1C5D8001' }, printer));
    expect(ok(await service.call(Rpc.moveOrder, { orderId: order.id, to: 'nfc-encoded' }, printer)).status).toBe('nfc-encoded');
    expect(await service.call(Rpc.moveOrder, { orderId: order.id, to: 'shipped' }, printer)).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { 'body.courier': ['Please name the courier.'], 'body.trackingNumber': ['Please enter the tracking number.'] },
    });
    const shipped = ok(
      await service.call(
        Rpc.moveOrder,
        { orderId: order.id, to: 'shipped', courier: 'The Courier Guy', trackingNumber: 'TCG123456' },
        printer,
      ),
    );
    expect(shipped.shipment).toEqual({ courier: 'The Courier Guy', trackingNumber: 'TCG123456' });
    expect(await service.call(Rpc.moveOrder, { orderId: order.id, to: 'cancelled' }, printer)).toMatchObject({ ok: false, status: 409 });
    const delivered = ok(await service.call(Rpc.moveOrder, { orderId: order.id, to: 'delivered' }, printer));

    expect(delivered.history.map((h) => [h.from, h.to, h.by, h.note])).toEqual([
      ['awaiting-payment', 'paid', 'system', null],
      ['paid', 'proof-ready', 'system', null],
      ['proof-ready', 'changes-requested', 'owner', 'Please use my maiden name.'],
      ['changes-requested', 'proof-ready', 'system', null],
      ['proof-ready', 'approved', 'owner', null],
      ['approved', 'printing', 'print', 'Batch 14'],
      ['printing', 'nfc-encoded', 'print', null],
      ['nfc-encoded', 'shipped', 'print', null],
      ['shipped', 'delivered', 'print', null],
    ]);
    const rows = await service.sql<{ actor_account_id: string | null }>(
      'SELECT actor_account_id FROM orders.order_history WHERE order_id = $1 ORDER BY id',
      [order.id],
    );
    expect(rows.map((r) => r.actor_account_id)).toEqual([
      null,
      null,
      who.accountId,
      null,
      who.accountId,
      ...Array(4).fill(printer!.accountId),
    ]);
    const events = (
      await service.recordedEvents<{ orderId: string; to: string; by: string; trackingNumber: string | null }>(
        Events.orderStateChanged.subject,
      )
    ).filter((e) => e.data.orderId === order.id);
    expect(events.map((e) => e.data.to)).toEqual([
      'proof-ready',
      'changes-requested',
      'proof-ready',
      'approved',
      'printing',
      'nfc-encoded',
      'shipped',
      'delivered',
    ]);
    expect(events.find((e) => e.data.to === 'shipped')?.data.trackingNumber).toBe('TCG123456');

    const slip = ok(await service.call(Rpc.packingSlip, { orderId: order.id }, printer));
    const slipPath = join(work, 'slip.pdf');
    writeFileSync(slipPath, Buffer.from(slip.dataBase64, 'base64'));
    const slipText = execFileSync('pdftotext', [slipPath, '-'], { encoding: 'utf8' });
    expect(slipText).toContain(order.reference);
    expect(slipText).toContain(first!);
    expect(slipText).toContain('TCG123456');
  });

  it('cancels and refunds only from the allowed states', async () => {
    const { who, order } = await paidOrder([{ id: 'pvc-card', quantity: 1 }]);
    await waitForStatus(who, order.id, (o) => o.status === 'proof-ready');
    expect(await service.call(Rpc.moveOrder, { orderId: order.id, to: 'delivered' }, printer)).toMatchObject({ ok: false, status: 409 });
    expect(ok(await service.call(Rpc.moveOrder, { orderId: order.id, to: 'cancelled', note: 'Customer asked' }, printer)).status).toBe(
      'cancelled',
    );
    expect(ok(await service.call(Rpc.moveOrder, { orderId: order.id, to: 'refunded' }, printer)).status).toBe('refunded');
    expect(await service.call(Rpc.moveOrder, { orderId: order.id, to: 'cancelled' }, printer)).toMatchObject({ ok: false, status: 409 });
    // An unpaid order cannot be refunded (nothing was paid), only cancelled.
    const unpaid = ok(await service.call(Rpc.placeOrder, { items: [{ id: 'pvc-card', quantity: 1 }] }, who));
    expect(await service.call(Rpc.moveOrder, { orderId: unpaid.id, to: 'refunded' }, printer)).toMatchObject({
      ok: false,
      status: 409,
      message: 'An order that is awaiting payment cannot become refunded.',
    });
    expect(ok(await service.call(Rpc.moveOrder, { orderId: unpaid.id, to: 'cancelled' }, printer)).status).toBe('cancelled');
    expect(await service.call(Rpc.moveOrder, { orderId: unpaid.id, to: 'refunded' }, printer)).toMatchObject({
      ok: false,
      status: 409,
      message: 'Only a paid order can be refunded.',
    });
    // Never paid: not in the print queue, and not opened there (the paid one cancelled and refunded is).
    const queue = ok(await service.call(Rpc.printQueue, {}, printer)).orders.map((o) => o.id);
    expect(queue).toContain(order.id);
    expect(queue).not.toContain(unpaid.id);
    expect(await service.call(Rpc.printOrder, { orderId: unpaid.id }, printer)).toMatchObject({ ok: false, status: 404 });
  });
});

describe('cards', () => {
  it('resolves a serial to its profile until the owner disables it; nobody else can', async () => {
    const { who, order, profile } = await paidOrder([{ id: 'pvc-card', quantity: 1 }]);
    const ready = await waitForStatus(who, order.id, (o) => o.status === 'proof-ready');
    const serial = ready.cards[0]!.serial;
    expect(ok(await service.call(Rpc.resolveCard, { serial }, null))).toEqual({ status: 'active', username: profile.username });
    expect(await service.call(Rpc.resolveCard, { serial: 'ZZZZZZZZ' }, null)).toMatchObject({ ok: false, status: 404 });
    expect(await service.call(Rpc.resolveCard, { serial: 'bad' }, null)).toMatchObject({ ok: false, status: 400 });
    expect(await service.call(Rpc.setCardDisabled, { serial, disabled: true }, owner())).toMatchObject({ ok: false, status: 404 });
    expect(await service.call(Rpc.setCardDisabled, { serial, disabled: true }, null)).toMatchObject({ ok: false, status: 401 });
    expect(ok(await service.call(Rpc.setCardDisabled, { serial, disabled: true }, who)).disabled).toBe(true);
    expect(ok(await service.call(Rpc.resolveCard, { serial }, null))).toEqual({ status: 'disabled' });
    ok(await service.call(Rpc.setCardDisabled, { serial, disabled: false }, who));
    // A new username (profile.updated) is where the card points from then on.
    profiles.set(who.accountId, { ...profile, username: 'thabo-new' });
    await service.handled(
      Events.profileUpdated,
      await service.publish(Events.profileUpdated, {
        accountId: who.accountId,
        username: 'thabo-new',
        updatedAt: new Date().toISOString(),
      }),
    );
    await waitForStatus(who, order.id, (o) => o.proof?.version === 2 && o.proof.status === 'ready');
    expect(ok(await service.call(Rpc.resolveCard, { serial }, null))).toEqual({ status: 'active', username: 'thabo-new' });
  });
});

describe('handing a team’s card to a rep', () => {
  const leaderOf = () => ({ accountId: randomUUID(), role: 'teamLeader' as const });
  const joined = async (leaderAccountId: string, memberAccountId: string, username: string) =>
    service.handled(
      Events.teamMemberAdded,
      await service.publish(Events.teamMemberAdded, {
        leaderAccountId,
        memberAccountId,
        username,
        tel: '0821234567',
        addedAt: new Date().toISOString(),
      }),
    );
  const history = (serial: string) =>
    service.sql<{ from_account_id: string | null; to_account_id: string | null; by_account_id: string | null }>(
      'SELECT from_account_id, to_account_id, by_account_id FROM orders.card_assignments WHERE serial = $1 ORDER BY at, id',
      [serial],
    );
  /** The pages `orders.cards.assigned` said this card opens, in order (profiles counts its views there only). */
  const announced = async (serial: string) =>
    (await service.recordedEvents<{ cards: Array<{ serial: string; accountId: string }> }>(Events.cardsAssigned.subject))
      .flatMap((e) => e.data.cards)
      .filter((c) => c.serial === serial)
      .map((c) => c.accountId);

  it("the leader points their card at a rep (/c/{serial} opens the rep's page), and back; each move is kept", async () => {
    const leader = leaderOf();
    const { who, order, profile } = await paidOrder([{ id: 'pvc-card', quantity: 1 }], leader);
    const serial = (await waitForStatus(who, order.id, (o) => o.status === 'proof-ready')).cards[0]!.serial;
    const rep = { accountId: randomUUID(), role: 'teamMember' as const };
    const repProfile = profileFor('Sipho', 'Dlamini');
    profiles.set(rep.accountId, repProfile);
    await joined(leader.accountId, rep.accountId, repProfile.username);

    const card = ok(await service.call(Rpc.assignCard, { serial, accountId: rep.accountId }, leader));
    expect(card).toMatchObject({ serial, assignedTo: rep.accountId, disabled: false });
    expect(ok(await service.call(Rpc.resolveCard, { serial }, null))).toEqual({ status: 'active', username: repProfile.username });
    expect((await detailOf(who, order.id)).cards[0]!.assignedTo).toBe(rep.accountId);
    // The same again changes and records nothing; back to the leader clears it.
    ok(await service.call(Rpc.assignCard, { serial, accountId: rep.accountId }, leader));
    expect(ok(await service.call(Rpc.assignCard, { serial, accountId: leader.accountId }, leader)).assignedTo).toBeNull();
    expect(ok(await service.call(Rpc.resolveCard, { serial }, null))).toEqual({ status: 'active', username: profile.username });
    expect(await history(serial)).toEqual([
      { from_account_id: null, to_account_id: rep.accountId, by_account_id: leader.accountId },
      { from_account_id: rep.accountId, to_account_id: null, by_account_id: leader.accountId },
    ]);
    // Announced when the card was made (the buyer's page) and at each move; the move that changed nothing is not.
    expect(await announced(serial)).toEqual([leader.accountId, rep.accountId, leader.accountId]);
  });

  it('refuses someone outside the team, another leader, a rep acting on a sibling, a DigiShare owner and a visitor', async () => {
    const leader = leaderOf();
    const { who, order } = await paidOrder([{ id: 'pvc-card', quantity: 1 }], leader);
    const serial = (await waitForStatus(who, order.id, (o) => o.status === 'proof-ready')).cards[0]!.serial;
    const repA = { accountId: randomUUID(), role: 'teamMember' as const };
    const repB = { accountId: randomUUID(), role: 'teamMember' as const };
    await joined(leader.accountId, repA.accountId, 'rep-a');
    await joined(leader.accountId, repB.accountId, 'rep-b');
    const otherLeader = leaderOf();
    const otherRep = randomUUID();
    await joined(otherLeader.accountId, otherRep, 'other-rep');

    // Not in the team: another leader's rep, a stranger, the other leader.
    for (const accountId of [otherRep, randomUUID(), otherLeader.accountId]) {
      expect(await service.call(Rpc.assignCard, { serial, accountId }, leader)).toMatchObject({
        ok: false,
        status: 400,
        fieldErrors: { accountId: [CardMessages.notInTeam] },
      });
    }
    // Another leader cannot move this card, not even to their own rep: it is not theirs (404, as for any other card).
    expect(await service.call(Rpc.assignCard, { serial, accountId: otherRep }, otherLeader)).toMatchObject({ ok: false, status: 404 });
    // A rep cannot move a card to a sibling, nor a DigiShare owner theirs; a visitor is asked to sign in.
    expect(await service.call(Rpc.assignCard, { serial, accountId: repB.accountId }, repA)).toMatchObject({ ok: false, status: 403 });
    const plain = owner();
    expect(await service.call(Rpc.assignCard, { serial, accountId: repA.accountId }, plain)).toMatchObject({ ok: false, status: 403 });
    expect(await service.call(Rpc.assignCard, { serial, accountId: repA.accountId }, null)).toMatchObject({ ok: false, status: 401 });
    expect(await service.call(Rpc.assignCard, { serial, accountId: 'not-a-uuid' }, leader)).toMatchObject({ ok: false, status: 400 });
    expect(await history(serial)).toEqual([]);
    expect(await announced(serial)).toEqual([leader.accountId]);
  });

  it("a rep's own card can be moved by their leader; when a rep leaves, the cards pointing at them point back at the buyer", async () => {
    const leader = leaderOf();
    const rep = { accountId: randomUUID(), role: 'teamMember' as const };
    const other = { accountId: randomUUID(), role: 'teamMember' as const };
    await joined(leader.accountId, rep.accountId, 'leaving-rep');
    await joined(leader.accountId, other.accountId, 'staying-rep');
    const { order } = await paidOrder([{ id: 'pvc-card', quantity: 1 }], rep);
    const serial = (await waitForStatus(rep, order.id, (o) => o.status === 'proof-ready')).cards[0]!.serial;
    expect(ok(await service.call(Rpc.assignCard, { serial, accountId: other.accountId }, leader)).assignedTo).toBe(other.accountId);

    const leaderCard = await paidOrder([{ id: 'pvc-card', quantity: 1 }], leader);
    const leaderSerial = (await waitForStatus(leader, leaderCard.order.id, (o) => o.status === 'proof-ready')).cards[0]!.serial;
    ok(await service.call(Rpc.assignCard, { serial: leaderSerial, accountId: other.accountId }, leader));
    const removedId = await service.publish(Events.teamMemberRemoved, {
      leaderAccountId: leader.accountId,
      memberAccountId: other.accountId,
      username: 'staying-rep',
      removedAt: new Date().toISOString(),
    });
    await service.handled(Events.teamMemberRemoved, removedId);
    expect(ok(await service.call(Rpc.resolveCard, { serial: leaderSerial }, null))).toEqual({
      status: 'active',
      username: leaderCard.profile.username,
    });
    expect((await history(leaderSerial)).at(-1)).toEqual({ from_account_id: other.accountId, to_account_id: null, by_account_id: null });
    // Both cards that pointed at the rep who left are announced back at their buyers (the rep's own card: the rep).
    expect(await announced(leaderSerial)).toEqual([leader.accountId, other.accountId, leader.accountId]);
    expect(await announced(serial)).toEqual([rep.accountId, other.accountId, rep.accountId]);
    // The rep who left can no longer be given a card.
    expect(await service.call(Rpc.assignCard, { serial: leaderSerial, accountId: other.accountId }, leader)).toMatchObject({
      ok: false,
      status: 400,
    });
  });
});

describe('who may use the print console and the owner’s actions', () => {
  it('refuses every print RPC to an owner, a team member, a staff member and a visitor', async () => {
    const { who, order } = await paidOrder([{ id: 'pvc-card', quantity: 1 }]);
    const ready = await waitForStatus(who, order.id, (o) => o.status === 'proof-ready');
    const orderId = order.id;
    const calls = [
      (c: Caller) => service.call(Rpc.printQueue, {}, c),
      (c: Caller) => service.call(Rpc.printOrder, { orderId }, c),
      (c: Caller) => service.call(Rpc.printProofFile, { orderId, kind: 'pdf' }, c),
      (c: Caller) => service.call(Rpc.moveOrder, { orderId, to: 'cancelled' }, c),
      (c: Caller) => service.call(Rpc.recordCard, { orderId, serial: ready.cards[0]!.serial, nfcUid: '04A23B1C' }, c),
      (c: Caller) => service.call(Rpc.rerenderProof, { orderId }, c),
      (c: Caller) => service.call(Rpc.packingSlip, { orderId }, c),
    ];
    for (const call of calls) {
      expect(await call(who)).toMatchObject({ ok: false, status: 403 });
      expect(await call({ accountId: randomUUID(), role: 'teamMember' })).toMatchObject({ ok: false, status: 403 });
      expect(await call({ accountId: randomUUID(), role: 'staff' })).toMatchObject({ ok: false, status: 403 });
      expect(await call(null)).toMatchObject({ ok: false, status: 401 });
    }
    expect((await detailOf(who, orderId)).status).toBe('proof-ready');
    // Another owner sees none of it: not in their list, and the files are 404.
    const other = owner();
    expect(ok(await service.call(Rpc.listOrderDetails, {}, other)).orders).toEqual([]);
    expect(await service.call(Rpc.ownProofFile, { orderId, kind: 'pdf' }, other)).toMatchObject({ ok: false, status: 404 });
    expect(await service.call(Rpc.requestProofChanges, { orderId, note: 'mine now' }, other)).toMatchObject({ ok: false, status: 404 });
  });

  it('checks the role in identity, not the session: a print or staff role identity does not hold is refused (bypassed gateway, revoked role)', async () => {
    const { who, order } = await paidOrder([{ id: 'pvc-card', quantity: 1 }]);
    const ready = await waitForStatus(who, order.id, (o) => o.status === 'proof-ready');
    const orderId = order.id;
    // A session (or a forged request) that says print, for an account identity knows as a user: a revoked printer.
    const revokedPrinter: Caller = { accountId: randomUUID(), role: 'print' };
    const revokedStaff: Caller = { accountId: randomUUID(), role: 'staff' };
    const printCalls = [
      () => service.call(Rpc.printQueue, {}, revokedPrinter),
      () => service.call(Rpc.printOrder, { orderId }, revokedPrinter),
      () => service.call(Rpc.printProofFile, { orderId, kind: 'pdf' }, revokedPrinter),
      () => service.call(Rpc.moveOrder, { orderId, to: 'cancelled' }, revokedPrinter),
      () => service.call(Rpc.recordCard, { orderId, serial: ready.cards[0]!.serial, nfcUid: '04A23B1C' }, revokedPrinter),
      () => service.call(Rpc.rerenderProof, { orderId }, revokedPrinter),
      () => service.call(Rpc.packingSlip, { orderId }, revokedPrinter),
    ];
    for (const call of printCalls) expect(await call()).toMatchObject({ ok: false, status: 403 });
    expect(await service.call(Rpc.staffFailedProofs, {}, revokedStaff)).toMatchObject({ ok: false, status: 403 });
    expect(await service.call(Rpc.staffRerenderProof, { orderId }, revokedStaff)).toMatchObject({ ok: false, status: 403 });
    // A print account may not use the staff subjects, nor a staff account the print ones, whatever its session says.
    expect(await service.call(Rpc.staffFailedProofs, {}, { accountId: printer!.accountId, role: 'staff' })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await service.call(Rpc.printQueue, {}, { accountId: staff!.accountId, role: 'print' })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect((await detailOf(who, orderId)).status).toBe('proof-ready');
    // The same account once identity holds the role: allowed.
    roles.set(revokedPrinter!.accountId, 'print');
    expect(await service.call(Rpc.printOrder, { orderId }, revokedPrinter)).toMatchObject({ ok: true });
    // Identity away: 503, never a pass.
    identityFailing.add(printer!.accountId);
    expect(await service.call(Rpc.printQueue, {}, printer)).toMatchObject({ ok: false, status: 503 });
    identityFailing.delete(printer!.accountId);
    expect(await service.call(Rpc.printQueue, {}, printer)).toMatchObject({ ok: true });
  });
});
