import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import Papa from 'papaparse';
import { SMTPServer } from 'smtp-server';
import { NATS_MAX_PAYLOAD_BYTES, PageMessages, encodeCursor } from '@digicard/contracts';
import { registerOwner, type TestOwner } from '@digicard/testing';
import { InProcessGateway } from './support/in-process-gateway.js';
import { ServicesBehind } from './support/services-behind.js';

// Issue 28, item 4: an owner's leads, their CSV and the data export were each one NATS reply, and an owner who received
// some 400 long Exchange Contact submissions could no longer get any of them (a reply over NATS' 1 MiB). Here, through
// the gateway with every service behind it (all in this process): the CSV and the export of such an owner hold every
// lead, streamed page by page; the list pages over `?cursor=&limit=` without missing or repeating a lead while new ones
// arrive; a bad cursor or limit is 400 with field errors; another account's cursor shows nothing of theirs.

/** A lead's message as long as the form allows, made of what escapes longest in CSV and JSON (quotes, line breaks). */
const longMessage = (n: number) => `Lead ${n}: "call me", please,\n${'"\n'.repeat(985)}`.slice(0, 2000);

describe('paged lists and streamed downloads through the gateway', () => {
  let system: InProcessGateway;
  let services: ServicesBehind;
  /** Where notifications sends its emails (the verification emails of registration): taken and dropped. */
  let smtp: SMTPServer;
  let owner: TestOwner;
  let other: TestOwner;
  const LEADS = 420;

  const get = (who: TestOwner | null, path: string) =>
    fetch(`${system.gatewayUrl}${path}`, { headers: who ? { cookie: who.client.cookie! } : {} });

  /** Leads stored as the form stores them (straight into profiles' table: the daily cap is not under test here). */
  async function storeLeads(accountId: string, from: number, count: number, at = "timestamptz '2024-02-01 10:00:00+02'"): Promise<void> {
    await services.get('profiles').sql(
      `INSERT INTO profiles.leads (id, account_id, kind, first_name, last_name, email, phone, message, consent_text, consent_at, created_at)
       SELECT gen_random_uuid(), $1, 'exchange', 'Visitor', 'Number ' || n, 'visitor' || n || '@example.co.za', '082 123 4567',
              ($4::text[])[n - $2 + 1], 'I agree that the owner may contact me about this.', now(),
              ${at} + (n / 5) * interval '1 second'
         FROM generate_series($2::int, $2::int + $3::int - 1) AS n`,
      [accountId, from, count, Array.from({ length: count }, (_, i) => longMessage(from + i))],
    );
  }

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        stream.on('end', () => callback());
        stream.resume();
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    system = await InProcessGateway.start();
    services = await ServicesBehind.start(system, ['identity', 'profiles', 'orders', 'payments', 'teams', 'notifications'], {
      notifications: { SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}` },
    });
    owner = await registerOwner(
      system,
      { username: 'busyowner', firstName: 'Busy', lastName: 'Owner', email: 'busy@example.co.za' },
      { verify: false },
    );
    other = await registerOwner(
      system,
      { username: 'otherowner', firstName: 'Other', lastName: 'Owner', email: 'other@example.co.za' },
      { verify: false },
    );
    await storeLeads(owner.accountId, 1, LEADS);
    await storeLeads(other.accountId, 10_001, 3);
  }, 120_000);

  afterAll(async () => {
    await services?.stop();
    await system?.stop();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });

  it('the owner’s leads outgrow one NATS message: the old single reply could not carry them', async () => {
    const rows = await services
      .get('profiles')
      .sql('SELECT id, kind, first_name, last_name, email, phone, message, created_at FROM profiles.leads WHERE account_id = $1', [
        owner.accountId,
      ]);
    assert.equal(rows.length, LEADS);
    assert.ok(Buffer.byteLength(JSON.stringify({ leads: rows })) > NATS_MAX_PAYLOAD_BYTES, 'more than one NATS message holds');
  });

  it('streams the whole leads CSV: every lead a row, quotes and line breaks intact, with the download’s headers', async () => {
    const res = await get(owner, '/api/profile/leads.csv');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="leads.csv"');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const text = await res.text();
    assert.ok(Buffer.byteLength(text) > NATS_MAX_PAYLOAD_BYTES);
    const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true });
    assert.deepEqual(parsed.errors, []);
    const [header, ...rows] = parsed.data;
    assert.deepEqual(header, ['Received', 'Form', 'First name', 'Last name', 'Email', 'Phone', 'Message']);
    assert.equal(rows.length, LEADS);
    const byNumber = new Map(rows.map((r) => [Number(/^visitor(\d+)@/.exec(r[4]!)![1]), r]));
    assert.equal(byNumber.size, LEADS, 'no lead twice');
    for (let n = 1; n <= LEADS; n += 1) {
      const row = byNumber.get(n);
      assert.ok(row, `lead ${n} is in the file`);
      assert.equal(row[6], longMessage(n));
      assert.equal(row[1], 'exchange');
    }
    // Newest first, as the dashboard lists them.
    const times = rows.map((r) => Date.parse(r[0]!));
    assert.deepEqual(
      [...times].sort((a, b) => b - a),
      times,
    );
  });

  it('streams the whole data export: valid JSON, every lead, every part of every service', async () => {
    const res = await get(owner, '/api/profile/export');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="my-digicard-data.json"');
    const text = await res.text();
    assert.ok(Buffer.byteLength(text) > NATS_MAX_PAYLOAD_BYTES);
    const data = JSON.parse(text) as Record<string, unknown> & { leads: Array<{ email: string; message: string; consentText: string }> };
    for (const key of [
      'exportedAt',
      'account',
      'profile',
      'images',
      'views',
      'analytics',
      'leads',
      'customer',
      'orders',
      'enquiries',
      'membershipVersion',
      'paymentRequests',
      'payments',
      'subscriptions',
      'payFastNotifications',
      'team',
      'mailLog',
    ])
      assert.ok(key in data, `the export has ${key}`);
    assert.equal((data['account'] as { email: string }).email, 'busy@example.co.za');
    assert.ok(Array.isArray((data['account'] as { emailLinks: unknown[] }).emailLinks));
    assert.equal(data.leads.length, LEADS);
    const numbers = new Set(data.leads.map((l) => Number(/^visitor(\d+)@/.exec(l.email)![1])));
    assert.equal(numbers.size, LEADS);
    for (const lead of data.leads) assert.equal(lead.message, longMessage(Number(/^visitor(\d+)@/.exec(lead.email)![1])));
    assert.equal(data.leads[0]!.consentText, 'I agree that the owner may contact me about this.');
    // Pretty-printed as before (two spaces), and nothing of the other owner's.
    assert.match(text, /^\{\n {2}"exportedAt": "/);
    assert.ok(!text.includes('visitor10001@'));
  });

  it('pages the list over ?cursor=&limit=: every lead once, newest first, while new leads arrive', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    let late = 0;
    do {
      const res = await owner.client.request(`/api/profile/leads?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200);
      const page = res.body as { leads: Array<{ id: string; email: string }>; nextCursor: string | null };
      assert.ok(page.leads.length <= 100);
      seen.push(...page.leads.map((l) => l.email));
      cursor = page.nextCursor;
      pages += 1;
      // A visitor sends a lead between two pages: newer than every page read so far.
      await storeLeads(owner.accountId, 20_000 + late, 1, 'now()');
      late += 1;
    } while (cursor);
    assert.ok(pages >= 5, `${pages} pages`);
    assert.equal(seen.length, LEADS);
    assert.equal(new Set(seen).size, LEADS);
    assert.ok(seen.every((email) => !email.startsWith('visitor2000')));
    const first = await owner.client.request('/api/profile/leads?limit=3');
    assert.deepEqual(
      (first.body.leads as Array<{ email: string }>).map((l) => l.email),
      [20_000 + late - 1, 20_000 + late - 2, 20_000 + late - 3].map((n) => `visitor${n}@example.co.za`),
    );
    // The list without a query is the first page of 50, with the cursor of the next.
    const plain = await owner.client.request('/api/profile/leads');
    assert.equal(plain.body.leads.length, 50);
    assert.equal(typeof plain.body.nextCursor, 'string');
  });

  it('refuses a bad cursor or limit with field errors (400), on every paged route', async () => {
    for (const [query, field, message] of [
      ['cursor=not-a-cursor', 'cursor', PageMessages.badCursor],
      ['cursor=eyJhdCI6Im5vdyJ9', 'cursor', PageMessages.badCursor],
      ['limit=0', 'limit', PageMessages.badLimit],
      ['limit=101', 'limit', PageMessages.badLimit],
      ['limit=ten', 'limit', PageMessages.badLimit],
      ['limit=5&limit=6', 'limit', PageMessages.badLimit],
    ] as const) {
      for (const path of ['/api/profile/leads', '/api/orders', '/api/order-details']) {
        const res = await owner.client.request(`${path}?${query}`);
        assert.equal(res.status, 400, `${path}?${query}`);
        assert.equal(res.body.code, 'VALIDATION_FAILED');
        assert.deepEqual(res.body.fieldErrors, { [field]: [message] }, `${path}?${query}`);
      }
    }
    // A cursor of ours in form but of another kind (a position within the export's lists) is refused by the service.
    const exportCursor = encodeCursor({ part: 1, at: '2024-02-01T08:00:00.000000Z', id: '4f0c2a8e-0d5b-4d0e-9d3a-2b7c4e1f6a10' });
    const res = await owner.client.request(`/api/profile/leads?cursor=${exportCursor}`);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.fieldErrors, { cursor: [PageMessages.badCursor] });
    // Signed out: 401 before anything is read.
    for (const path of ['/api/profile/leads?limit=zero', '/api/profile/leads.csv', '/api/profile/export'])
      assert.equal((await get(null, path)).status, 401);
  });

  it('answers another owner’s cursor, CSV and export with their own leads only', async () => {
    const page = await owner.client.request('/api/profile/leads?limit=2');
    const theirCursor = page.body.nextCursor as string;
    const borrowed = await other.client.request(`/api/profile/leads?cursor=${theirCursor}`);
    assert.equal(borrowed.status, 200);
    for (const lead of borrowed.body.leads as Array<{ email: string }>) assert.match(lead.email, /^visitor1000[123]@/);
    const csv = await (await get(other, '/api/profile/leads.csv')).text();
    assert.equal(csv.trim().split('\r\n').length >= 4, true);
    assert.ok(!/visitor([1-9]|[1-9]\d|[1-3]\d\d|4[01]\d|420)@/.test(csv), 'none of the busy owner’s leads');
    const exported = JSON.parse(await (await get(other, '/api/profile/export')).text()) as { leads: Array<{ email: string }> };
    assert.deepEqual(exported.leads.map((l) => l.email).sort(), [
      'visitor10001@example.co.za',
      'visitor10002@example.co.za',
      'visitor10003@example.co.za',
    ]);
  });
});
