import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Events,
  NATS_MAX_PAYLOAD_BYTES,
  PAGE_MAX_BYTES,
  PageMessages,
  Rpc,
  decodeCursor,
  encodeCursor,
  type ExportChunk,
  type Lead,
  type LeadList,
} from '@digicard/contracts';
import { InProcessService, type Answer, type Caller } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { profilesService } from '../src/service.js';

// The owner's leads, the team leads and the data export read in pages (issue 28, item 4): every lead exactly once
// across pages while new ones arrive, no page larger than a NATS message can carry, bad cursors and limits refused
// with field errors, and a cursor taken from another account's list opening nothing of theirs.

let service: InProcessService<Config>;

async function registered(username: string, membership = 'DigiGold'): Promise<string> {
  const accountId = randomUUID();
  await service.handled(
    Events.userRegistered,
    await service.publish(Events.userRegistered, {
      accountId,
      username,
      email: `${username}@example.test`,
      firstName: 'Owner',
      lastName: 'Tester',
      role: 'user',
      registeredAt: new Date().toISOString(),
    }),
  );
  await service.sql('UPDATE profiles.profiles SET membership = $1 WHERE account_id = $2', [membership, accountId]);
  return accountId;
}

/**
 * `count` leads of an owner stored directly (the daily cap and the forms are not under test here), in clusters that
 * share one timestamp to the microsecond and others a microsecond apart (within one millisecond: a JavaScript Date
 * cannot tell them apart), so that paging must break ties by id.
 */
async function storeLeads(accountId: string, count: number, message = 'Call me', formerRep: string | null = null): Promise<string[]> {
  const rows = await service.sql<{ id: string }>(
    `INSERT INTO profiles.leads (id, account_id, kind, first_name, last_name, email, phone, message, created_at, former_rep)
     SELECT gen_random_uuid(), $1, 'exchange', 'Visitor ' || n, 'Tester', 'v' || n || '@example.test', '', $3,
            timestamptz '2024-03-02 08:00:00+02' + (n / 10) * interval '1 second' + (n % 3) * interval '1 microsecond', $4
       FROM generate_series(1, $2::int) AS n
     RETURNING id`,
    [accountId, count, message, formerRep],
  );
  return rows.map((r) => r.id);
}

/** Every page of a lead list, as the web app's "Load more" and the gateway's CSV read it; `between` runs after each page. */
async function allPages(
  rpc: typeof Rpc.listLeads | typeof Rpc.listTeamLeads,
  caller: Caller,
  limit: number,
  between: () => Promise<void> = () => Promise.resolve(),
): Promise<{ leads: Lead[]; pages: LeadList[] }> {
  const pages: LeadList[] = [];
  let cursor: string | null = null;
  do {
    const answer: Answer<LeadList> = await service.call(rpc, { ...(cursor ? { cursor } : {}), limit }, caller);
    if (!answer.ok) throw new Error(`${answer.status} ${answer.message}`);
    pages.push(answer.value);
    cursor = answer.value.nextCursor;
    await between();
  } while (cursor);
  return { leads: pages.flatMap((p) => p.leads), pages };
}

beforeAll(async () => {
  service = await InProcessService.start(profilesService);
});

afterAll(async () => {
  await service?.stop();
});

describe('the owner’s leads, a page at a time', () => {
  it('gives every lead exactly once, newest first, while new leads keep arriving', async () => {
    const owner = await registered('pagedowner');
    const stored = await storeLeads(owner, 143);
    let arrived = 0;
    const { leads, pages } = await allPages(Rpc.listLeads, { accountId: owner }, 9, async () => {
      // A visitor sends a lead between two pages: it is newer than every page already read.
      await storeLeads(owner, 1, 'A new one');
      await service.sql(`UPDATE profiles.leads SET created_at = now() WHERE account_id = $1 AND message = 'A new one'`, [owner]);
      arrived += 1;
    });
    expect(pages.length).toBe(Math.ceil(143 / 9));
    expect(pages.slice(0, -1).every((p) => p.leads.length === 9 && p.nextCursor !== null)).toBe(true);
    expect(pages.at(-1)!.nextCursor).toBeNull();
    const ids = leads.map((l) => l.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...stored].sort());
    expect(arrived).toBe(pages.length);
    // Newest first, ties by id, exactly as PostgreSQL orders them.
    const expected = await service.sql<{ id: string }>(
      `SELECT id FROM profiles.leads WHERE account_id = $1 AND message <> 'A new one' ORDER BY created_at DESC, id DESC`,
      [owner],
    );
    expect(ids).toEqual(expected.map((r) => r.id));
    // The first page, asked again, starts with the leads that arrived meanwhile.
    const again = await service.call(Rpc.listLeads, { limit: 3 }, { accountId: owner });
    expect(again.ok && again.value.leads.every((l) => l.message === 'A new one')).toBe(true);
  });

  it('ends a page of long leads before it outgrows a NATS message, and still gives every lead', async () => {
    const owner = await registered('longleads');
    // 2000 characters a message, each escaped to six in JSON: about 12 KB a lead, 1.5 MB for 130 of them.
    const stored = await storeLeads(owner, 130, '\u0001'.repeat(2000));
    const everything = JSON.stringify((await service.sql('SELECT * FROM profiles.leads WHERE account_id = $1', [owner])) as unknown[]);
    expect(Buffer.byteLength(everything)).toBeGreaterThan(NATS_MAX_PAYLOAD_BYTES);
    const { leads, pages } = await allPages(Rpc.listLeads, { accountId: owner }, 100);
    expect(pages.length).toBeGreaterThan(2);
    for (const page of pages) {
      expect(page.leads.length).toBeLessThan(100);
      expect(Buffer.byteLength(JSON.stringify(page.leads))).toBeLessThanOrEqual(PAGE_MAX_BYTES + page.leads.length);
    }
    expect(leads.map((l) => l.id).sort()).toEqual([...stored].sort());
    expect(leads.every((l) => l.message.length === 2000)).toBe(true);
  });

  it('refuses a cursor that is not one of ours and a limit out of range with field errors', async () => {
    const owner = await registered('badpages');
    await storeLeads(owner, 3);
    const me = { accountId: owner };
    const refused = (field: string, message: string) => ({
      ok: false,
      status: 400,
      code: 'VALIDATION_FAILED',
      fieldErrors: { [`body.${field}`]: [message] },
    });
    for (const cursor of ['not a cursor', 'eyJ4IjoxfQ', 'x'.repeat(300), Buffer.from('{"at":"yesterday","id":"1"}').toString('base64url')])
      expect(await service.call(Rpc.listLeads, { cursor }, me)).toMatchObject(refused('cursor', PageMessages.badCursor));
    for (const limit of [0, -1, 101, 2.5])
      expect(await service.call(Rpc.listLeads, { limit }, me)).toMatchObject(refused('limit', PageMessages.badLimit));
    // Ours in form, but of the data export (a list's position within a sequence of lists), not of a list.
    const exportCursor = encodeCursor({ part: 0, at: '2026-03-02T06:00:00.000000Z', id: randomUUID() });
    expect(await service.call(Rpc.listLeads, { cursor: exportCursor }, me)).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { cursor: [PageMessages.badCursor] },
    });
    // And a list's cursor is not the export's.
    const listCursor = encodeCursor({ at: '2026-03-02T06:00:00.000000Z', id: randomUUID() });
    expect(await service.call(Rpc.exportData, { cursor: listCursor }, me)).toMatchObject({ ok: false, status: 400 });
    expect(await service.call(Rpc.exportData, { cursor: encodeCursor({ part: 5 }) }, me)).toMatchObject({ ok: false, status: 400 });
    expect(await service.call(Rpc.listLeads, {}, null)).toMatchObject({ ok: false, status: 401 });
  });

  it('answers another account’s cursor with the caller’s own leads only, never the other’s', async () => {
    const first = await registered('cursorowner');
    const second = await registered('cursorthief');
    const theirs = await storeLeads(first, 20);
    const mine = await storeLeads(second, 4);
    const page = await service.call(Rpc.listLeads, { limit: 5 }, { accountId: first });
    if (!page.ok || !page.value.nextCursor) throw new Error('no second page');
    expect(decodeCursor(page.value.nextCursor)).not.toHaveProperty('accountId');
    const own = await allPages(Rpc.listLeads, { accountId: second }, 100);
    const withTheirCursor = await service.call(Rpc.listLeads, { cursor: page.value.nextCursor, limit: 100 }, { accountId: second });
    if (!withTheirCursor.ok) throw new Error(withTheirCursor.message);
    for (const lead of withTheirCursor.value.leads) {
      expect(mine).toContain(lead.id);
      expect(theirs).not.toContain(lead.id);
    }
    expect(own.leads.map((l) => l.id).sort()).toEqual([...mine].sort());
    // Their cursor in the export: the caller's own part only.
    const exported = await service.exportOf(Rpc.exportData, { accountId: second }, 2);
    if (!exported.ok) throw new Error(exported.message);
    expect((exported.value['leads'] as Lead[]).map((l) => l.id).sort()).toEqual([...mine].sort());
    expect(JSON.stringify(exported.value)).not.toContain(theirs[0]!);
  });
});

describe('the team leads and the export, a page at a time', () => {
  it('pages a leader’s team leads (current reps’ and former reps’) without missing or repeating one', async () => {
    const leader = await registered('pageleader', 'DigiPlatinum');
    const rep = await registered('pagerep');
    const stranger = await registered('pagestranger');
    await service.sql('UPDATE profiles.profiles SET business_account_id = $1 WHERE account_id = $2', [leader, rep]);
    const repLeads = await storeLeads(rep, 23);
    const formerLeads = await storeLeads(leader, 11, 'Kept with the team', 'gone-rep');
    const leaderOwn = await storeLeads(leader, 6);
    const strangers = await storeLeads(stranger, 5);
    const { leads } = await allPages(Rpc.listTeamLeads, { accountId: leader, role: 'teamLeader' }, 4);
    expect(leads.map((l) => l.id).sort()).toEqual([...repLeads, ...formerLeads].sort());
    expect(new Set(leads.map((l) => l.id)).size).toBe(leads.length);
    expect(leads.filter((l) => l.rep === 'gone-rep').length).toBe(11);
    expect(leads.filter((l) => l.rep === 'pagerep').length).toBe(23);
    for (const id of [...leaderOwn, ...strangers]) expect(leads.map((l) => l.id)).not.toContain(id);
    expect(await service.call(Rpc.listTeamLeads, { cursor: 'nope' }, { accountId: leader, role: 'teamLeader' })).toMatchObject({
      ok: false,
      status: 400,
    });
  });

  it('exports every lead of an owner whose leads outgrow one NATS message, in chunks that each fit one', async () => {
    const owner = await registered('exportowner');
    // About 12 KB a lead in JSON (see above): 300 of them are 3.6 MB, over three times what one NATS message holds.
    const stored = await storeLeads(owner, 300, '\u0001'.repeat(2000));
    const chunks: number[] = [];
    let cursor: string | null = null;
    do {
      const chunk: Answer<ExportChunk> = await service.call(
        Rpc.exportData,
        { ...(cursor ? { cursor } : {}), limit: 100 },
        { accountId: owner },
      );
      if (!chunk.ok) throw new Error(chunk.message);
      chunks.push(Buffer.byteLength(JSON.stringify(chunk.value)));
      cursor = chunk.value.nextCursor;
    } while (cursor);
    expect(chunks.reduce((a, b) => a + b, 0)).toBeGreaterThan(3 * NATS_MAX_PAYLOAD_BYTES);
    for (const size of chunks) expect(size).toBeLessThan(PAGE_MAX_BYTES + 64 * 1024);
    const exported = await service.exportOf(Rpc.exportData, { accountId: owner }, 100);
    if (!exported.ok) throw new Error(exported.message);
    const leads = exported.value['leads'] as Array<Lead & { consentText: string }>;
    expect(leads.map((l) => l.id).sort()).toEqual([...stored].sort());
    expect(exported.value).toMatchObject({ profile: { username: 'exportowner' }, views: {}, analytics: [] });
  });

  it('exports every analytics total of an owner whose keys keep growing, a page at a time, in the order of the cursor', async () => {
    const owner = await registered('manykeys');
    // 1,200 card serials and click targets (some not ASCII), each counted on 3 days: new keys come every day.
    await service.sql(
      `INSERT INTO profiles.analytics_daily (account_id, day, metric, key, count)
       SELECT $1, date '2026-01-01' + d, CASE WHEN n % 2 = 0 THEN 'card' ELSE 'click' END,
              CASE WHEN n % 2 = 0 THEN 'DC-' || lpad(n::text, 5, '0') ELSE 'wl:Café ' || n || ' “Ubuntu”' END, 1 + d
         FROM generate_series(1, 1200) AS n, generate_series(0, 2) AS d`,
      [owner],
    );
    const exported = await service.exportOf(Rpc.exportData, { accountId: owner }, 100);
    if (!exported.ok) throw new Error(exported.message);
    const totals = exported.value['analytics'] as Array<{ metric: string; key: string; count: number }>;
    expect(totals).toHaveLength(1200);
    expect(new Set(totals.map((t) => `${t.metric}/${t.key}`)).size).toBe(1200);
    expect(totals.every((t) => t.count === 6)).toBe(true);
    expect(totals).toContainEqual({ metric: 'click', key: 'wl:Café 7 “Ubuntu”', count: 6 });
  });
});
