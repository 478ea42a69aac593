import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, Rpc, type EnquiryReceived } from '@digicard/contracts';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { ordersService } from '../src/service.js';
import { ordersEnv } from './orders-env.js';
import { CatalogueQueries } from '../src/catalogue/catalogue-queries.js';
import { SubmitEnquiry } from '../src/enquiries/use-cases/submit-enquiry.use-case.js';

// The orders service in this process, on a fresh database (with the catalogue seed of its migrations) and its own
// NATS server: the enquiry use case with its real repository and outbox, the catalogue over NATS.

let service: InProcessService<Config>;

const enquiriesCount = async (): Promise<number> =>
  (await service.sql<{ n: number }>('SELECT count(*)::int AS n FROM orders.enquiries'))[0]!.n;

const environment = ordersEnv();

beforeAll(async () => {
  service = await InProcessService.start(ordersService, environment.env);
});

afterAll(async () => {
  await service.stop();
  await environment.cleanUp();
});

describe('submit enquiry', () => {
  it('stores a call-back with orders.enquiry.received in the outbox', async () => {
    const accepted = await service
      .get(SubmitEnquiry)
      .execute({ kind: 'call-back', name: 'Thabo Nkosi', email: 'thabo@example.co.za', number: '0821234567' });
    const rows = await service.sql<{
      kind: string;
      name: string;
      email: string;
      phone: string | null;
      message: string | null;
      created_at: Date;
    }>('SELECT kind, name, email, phone, message, created_at FROM orders.enquiries WHERE id = $1', [accepted.id]);
    expect(rows).toEqual([
      {
        kind: 'call-back',
        name: 'Thabo Nkosi',
        email: 'thabo@example.co.za',
        phone: '0821234567',
        message: null,
        created_at: expect.any(Date),
      },
    ]);
    expect(accepted.receivedAt).toBe(rows[0]!.created_at.toISOString());
    const received = (await service.recordedEvents<EnquiryReceived>(Events.enquiryReceived.subject)).filter(
      (e) => e.data.enquiryId === accepted.id,
    );
    expect(received.map((e) => e.data)).toEqual([
      {
        enquiryId: accepted.id,
        kind: 'call-back',
        name: 'Thabo Nkosi',
        email: 'thabo@example.co.za',
        phone: '0821234567',
        message: null,
        company: null,
        teamSize: null,
        receivedAt: accepted.receivedAt,
      },
    ]);
  });

  it('stores a DigiPlatinum quote request with the company and the team’s size', async () => {
    const answer = await service.call(Rpc.submitEnquiry, {
      kind: 'quote',
      name: 'Ayanda Khumalo',
      email: 'ayanda@acme.co.za',
      number: '0115551234',
      company: ' Acme Logistics ',
      teamSize: 40,
    });
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    const rows = await service.sql('SELECT kind, company, team_size, phone, message FROM orders.enquiries WHERE id = $1', [
      answer.value.id,
    ]);
    expect(rows).toEqual([{ kind: 'quote', company: 'Acme Logistics', team_size: 40, phone: '0115551234', message: null }]);
    const [event] = (await service.recordedEvents<EnquiryReceived>(Events.enquiryReceived.subject)).filter(
      (e) => e.data.enquiryId === answer.value.id,
    );
    expect(event?.data).toMatchObject({ kind: 'quote', company: 'Acme Logistics', teamSize: 40, phone: '0115551234' });
    const tooSmall = await service.call(Rpc.submitEnquiry, {
      kind: 'quote',
      name: 'Solo',
      email: 'solo@example.co.za',
      number: '0821234567',
      company: 'Me',
      teamSize: 1,
    });
    expect(tooSmall).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { 'body.teamSize': ['DigiPlatinum is for teams of two or more.'] },
    });
  });

  it('answers a retry with the same idempotency key with the first enquiry: one stored, one email event; another key is another enquiry', async () => {
    const body = {
      kind: 'call-back' as const,
      name: 'Retry Ramaphosa',
      email: 'retry@example.co.za',
      number: '0821112222',
      idempotencyKey: 'browser-key-0001-abcdef',
    };
    // The first one finished after the gateway had already answered 503; the person presses the button again.
    const [first, again] = await Promise.all([service.call(Rpc.submitEnquiry, body), service.call(Rpc.submitEnquiry, body)]);
    const third = await service.call(Rpc.submitEnquiry, body);
    expect(first.ok && again.ok && third.ok).toBe(true);
    expect(again).toEqual(first);
    expect(third).toEqual(first);
    const rows = await service.sql("SELECT id FROM orders.enquiries WHERE email = 'retry@example.co.za'");
    expect(rows).toHaveLength(1);
    const events = (await service.recordedEvents<EnquiryReceived>(Events.enquiryReceived.subject)).filter(
      (e) => e.data.email === 'retry@example.co.za',
    );
    expect(events).toHaveLength(1);

    const other = await service.call(Rpc.submitEnquiry, { ...body, idempotencyKey: 'browser-key-0002-abcdef' });
    expect(other.ok && first.ok && other.value.id !== first.value.id).toBe(true);
    // Someone else's details with a key that was used: refused, not answered with the first person's enquiry.
    expect(await service.call(Rpc.submitEnquiry, { ...body, email: 'someone-else@example.co.za' })).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(await service.call(Rpc.submitEnquiry, { ...body, idempotencyKey: 'short' })).toMatchObject({ ok: false, status: 400 });
  });

  it('takes a message over NATS, the form’s fields trimmed', async () => {
    const answer = await service.call(Rpc.submitEnquiry, {
      kind: 'message',
      name: '  Lerato Molefe ',
      email: 'lerato@example.co.za',
      message: 'Ten steel cards, please.',
    });
    expect(answer).toEqual({
      ok: true,
      value: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), receivedAt: expect.stringMatching(/^\d{4}-/) },
    });
    if (!answer.ok) return;
    const [event] = (await service.recordedEvents<EnquiryReceived>(Events.enquiryReceived.subject)).filter(
      (e) => e.data.enquiryId === answer.value.id,
    );
    expect(event?.data).toMatchObject({ kind: 'message', name: 'Lerato Molefe', phone: null, message: 'Ten steel cards, please.' });
  });

  it('stores nothing when its event cannot be recorded: one transaction', async () => {
    const before = await enquiriesCount();
    await service.sql(`
      CREATE FUNCTION orders.refuse_outbox() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'outbox refused by the test'; END $$;
      CREATE TRIGGER refuse_outbox BEFORE INSERT ON orders.outbox FOR EACH ROW EXECUTE FUNCTION orders.refuse_outbox();
    `);
    try {
      await expect(
        service.get(SubmitEnquiry).execute({ kind: 'call-back', name: 'Lost Enquiry', email: 'lost@example.co.za', number: '0820000000' }),
      ).rejects.toThrow();
    } finally {
      await service.sql('DROP TRIGGER refuse_outbox ON orders.outbox; DROP FUNCTION orders.refuse_outbox();');
    }
    expect(await enquiriesCount()).toBe(before);
    expect(await service.sql("SELECT id FROM orders.enquiries WHERE email = 'lost@example.co.za'")).toEqual([]);
  });

  it('answers field errors for an invalid enquiry and stores nothing', async () => {
    const before = await enquiriesCount();
    const events = (await service.recordedEvents(Events.enquiryReceived.subject)).length;
    const answer = await service.call(Rpc.submitEnquiry, { kind: 'call-back', name: ' ', email: 'not-an-email', number: '082 123' });
    expect(answer).toEqual({
      ok: false,
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Please correct the highlighted fields.',
      fieldErrors: {
        'body.name': ['Please enter your name.'],
        'body.email': ['Please enter a valid email address, e.g. thabo@example.co.za.'],
        'body.number': ['Please enter a 10-digit phone number, e.g. 0821234567.'],
      },
    });
    const noMessage = await service.call(Rpc.submitEnquiry, { kind: 'message', name: 'Sipho', email: 'sipho@example.co.za', message: '' });
    expect(noMessage).toMatchObject({ ok: false, status: 400, fieldErrors: { 'body.message': ['Please enter a message.'] } });
    expect(await enquiriesCount()).toBe(before);
    expect(await service.recordedEvents(Events.enquiryReceived.subject)).toHaveLength(events);
  });
});

describe('catalogue', () => {
  it('lists the seeded cards and specials in the shop’s order, prices in cents', async () => {
    const answer = await service.call(Rpc.listCatalogue, {});
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.value.items.map((i) => [i.id, i.kind, i.normalPrice, i.specialPrice])).toEqual([
      ['pvc-card', 'accessory', 36900, null],
      ['bamboo-card', 'accessory', 45900, null],
      ['ssteel-card', 'accessory', 56900, null],
      ['pvc-special', 'special', 119700, 89900],
      ['bamboo-special', 'special', 138700, 109900],
      ['ssteel-special', 'special', 151700, 119900],
    ]);
  });

  it('gives one item by id, and 404 "Card not found" for an unknown one', async () => {
    expect(await service.call(Rpc.getCatalogueItem, { id: 'ssteel-special' })).toMatchObject({
      ok: true,
      value: {
        id: 'ssteel-special',
        name: 'Stainless Steel NFC Card Special',
        path: '/specials/ssteel-special',
        includedGoldMonths: 12,
        colors: ['Silver', 'Gold', 'Black'],
      },
    });
    expect(await service.call(Rpc.getCatalogueItem, { id: 'gold-card' })).toEqual({
      ok: false,
      status: 404,
      code: 'NOT_FOUND',
      message: 'Card not found',
    });
    await expect(service.get(CatalogueQueries).item('gold-card')).rejects.toMatchObject({
      body: { statusCode: 404, message: 'Card not found' },
    });
    expect(await service.call(Rpc.getCatalogueItem, { id: 'x'.repeat(65) })).toMatchObject({
      ok: false,
      status: 400,
      code: 'VALIDATION_FAILED',
    });
  });

  it('sanitises the more-info HTML it answers: formatting and safe links stay, scripts and handlers go', async () => {
    await service.sql(
      `INSERT INTO orders.catalogue_items (id, kind, path, name, normal_price, cat_image, images, heading, benefits, cta, dimensions, temp, store_temp, years, weight, printing, read_range, material, colors, more_info, sort_order)
       SELECT 'test-card', kind, '/accessories/test-card', 'Test card', normal_price, cat_image, images, heading, benefits, cta, dimensions, temp, store_temp, years, weight, printing, read_range, material, colors, $1, 999
       FROM orders.catalogue_items WHERE id = 'pvc-card'`,
      [
        '<p onclick="steal()">Tough <strong>card</strong></p><script>steal()</script><a href="javascript:steal()">x</a><a href="https://example.co.za">more</a>',
      ],
    );
    const item = await service.get(CatalogueQueries).item('test-card');
    expect(item.moreInfo).toBe(
      '<p>Tough <strong>card</strong></p><a rel="noopener noreferrer">x</a><a href="https://example.co.za" rel="noopener noreferrer">more</a>',
    );
    const listed = await service.call(Rpc.listCatalogue, {});
    expect(listed.ok && listed.value.items.at(-1)).toMatchObject({ id: 'test-card', moreInfo: item.moreInfo });
  });
});
