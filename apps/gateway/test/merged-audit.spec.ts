import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { decodeCursor, type StaffAuditEntry, type StaffAuditPage } from '@digicard/contracts';
import { mergeAuditPages } from '../src/staff/merged-audit.js';

// The staff console's audit is two lists, identity's and profiles', shown as one newest first and read a page at a
// time: each page asks both services for the changes after the same position and merges what they answer. Here the
// services are stand-ins that page as libs/server's toPage does (limit + a page that may end early, as a page of long
// entries does at PAGE_MAX_BYTES).

const ACCOUNT = '4f5a6b7c-8d9e-4fa0-8b1c-2d3e4f5a6b7c';
const STAFF = '00000000-0000-4000-8000-000000000001';
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function entry(n: number, at: string): StaffAuditEntry {
  return {
    id: uuid(n),
    accountId: ACCOUNT,
    staffAccountId: STAFF,
    staffUsername: 'desk',
    change: 'partner',
    before: false,
    after: true,
    at,
  };
}

const newestFirst = (a: StaffAuditEntry, b: StaffAuditEntry) => (a.at === b.at ? b.id.localeCompare(a.id) : b.at.localeCompare(a.at));

/** A service's page after the cursor's position: at most `limit`, fewer when `shortBy` says (its byte cap). */
function servicePage(list: StaffAuditEntry[], cursor: string | null, limit: number, shortBy = 0): StaffAuditPage {
  const position = cursor ? decodeCursor(cursor) : null;
  const rest = list
    .slice()
    .sort(newestFirst)
    .filter((e) => !position || e.at < position.at! || (e.at === position.at && e.id < position.id!));
  const take = Math.max(1, Math.min(limit, rest.length) - shortBy);
  const entries = rest.slice(0, take);
  return { entries, nextCursor: rest.length > entries.length ? `c${entries.at(-1)!.id}` : null };
}

function readAll(identity: StaffAuditEntry[], profiles: StaffAuditEntry[], limit: number, shortBy: [number, number] = [0, 0]) {
  const pages: StaffAuditEntry[][] = [];
  let cursor: string | null = null;
  do {
    const page = mergeAuditPages(
      [servicePage(identity, cursor, limit, shortBy[0]), servicePage(profiles, cursor, limit, shortBy[1])],
      limit,
    );
    assert.ok(page.entries.length <= limit, 'a page holds at most the limit');
    assert.ok(page.entries.length > 0 || page.nextCursor === null, 'no empty page before the end');
    pages.push(page.entries);
    cursor = page.nextCursor;
    assert.ok(pages.length < 1000, 'the pages end');
  } while (cursor);
  return pages;
}

const micro = (second: number, us = 0) =>
  `2026-11-28T10:${String(Math.floor(second / 60)).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}.${String(us).padStart(6, '0')}Z`;

describe('the staff audit, merged from two services a page at a time', () => {
  it('shows every change of both once, newest first, across pages of any size', () => {
    const identity = Array.from({ length: 23 }, (_, i) => entry(i + 1, micro(i * 3)));
    const profiles = Array.from({ length: 41 }, (_, i) => entry(100 + i, micro(i * 2, 500)));
    const expected = [...identity, ...profiles].sort(newestFirst).map((e) => e.id);
    for (const limit of [1, 2, 7, 50, 100]) {
      const pages = readAll(identity, profiles, limit);
      assert.deepEqual(
        pages.flat().map((e) => e.id),
        expected,
        `limit ${limit}`,
      );
      assert.equal(pages.length, Math.ceil(expected.length / limit), `limit ${limit}: every page full but the last`);
    }
  });

  it('keeps changes in the same microsecond apart by id, and lists of one service only', () => {
    const identity = Array.from({ length: 6 }, (_, i) => entry(i + 1, micro(5)));
    const profiles = Array.from({ length: 6 }, (_, i) => entry(50 + i, micro(5)));
    const expected = [...identity, ...profiles].sort(newestFirst).map((e) => e.id);
    assert.deepEqual(
      readAll(identity, profiles, 5)
        .flat()
        .map((e) => e.id),
      expected,
    );
    assert.deepEqual(
      readAll([], profiles, 4)
        .flat()
        .map((e) => e.id),
      profiles
        .slice()
        .sort(newestFirst)
        .map((e) => e.id),
    );
    assert.deepEqual(readAll([], [], 4), [[]]);
  });

  it('loses nothing when a service’s page ends early (long entries at its byte cap)', () => {
    const identity = Array.from({ length: 30 }, (_, i) => entry(i + 1, micro(i * 2)));
    const profiles = Array.from({ length: 30 }, (_, i) => entry(100 + i, micro(i * 2 + 1)));
    const expected = [...identity, ...profiles].sort(newestFirst).map((e) => e.id);
    for (const shortBy of [
      [0, 8],
      [8, 0],
      [3, 5],
    ] as Array<[number, number]>) {
      assert.deepEqual(
        readAll(identity, profiles, 10, shortBy)
          .flat()
          .map((e) => e.id),
        expected,
        `short by ${shortBy.join('/')}`,
      );
    }
  });

  it('points the next page at the last change shown (its time and id), on the last page at nothing', () => {
    const identity = [entry(1, micro(9)), entry(2, micro(3))];
    const profiles = [entry(3, micro(6)), entry(4, micro(1))];
    const first = mergeAuditPages([servicePage(identity, null, 2), servicePage(profiles, null, 2)], 2);
    assert.deepEqual(
      first.entries.map((e) => e.id),
      [uuid(1), uuid(3)],
    );
    assert.deepEqual(decodeCursor(first.nextCursor!), { at: micro(6), id: uuid(3) });
    const second = mergeAuditPages([servicePage(identity, first.nextCursor, 2), servicePage(profiles, first.nextCursor, 2)], 2);
    assert.deepEqual(
      second.entries.map((e) => e.id),
      [uuid(2), uuid(4)],
    );
    assert.equal(second.nextCursor, null);
  });
});
