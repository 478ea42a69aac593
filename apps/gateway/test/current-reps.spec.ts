import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { Team, TeamAnalyticsNumbers } from '@digicard/contracts';
import { withCurrentReps } from '../src/teams/current-reps.js';

const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
const rep = (n: number, username: string): Team['reps'][number] => ({
  accountId: id(n),
  username,
  firstName: username,
  lastName: 'Rep',
  email: `${username}@example.co.za`,
  tel: '0821234567',
  addedAt: '2030-01-01T00:00:00.000Z',
  active: true,
});
const row = (n: number, views: number) => ({ accountId: id(n), views, saves: 1, leads: 2, visitors: views, clicks: 0 });

describe('a page of the leader view as the team is now', () => {
  // Profiles' numbers: Lerato and Sipho, and the whole team's totals.
  const numbers: TeamAnalyticsNumbers = {
    full: true,
    from: '2030-01-01',
    to: '2030-01-30',
    reps: [row(1, 5), row(2, 3)],
    totals: { views: 8, saves: 2, leads: 4, visitors: 8, clicks: 0 },
  };

  it('shows the reps of teams’ page only: a rep teams has removed is left out though profiles still counts them', () => {
    const current = withCurrentReps(numbers, { reps: [rep(2, 'sipho')], nextCursor: null });
    assert.deepEqual(
      current.reps.map((r) => [r.username, r.views]),
      [['sipho', 3]],
    );
    assert.equal(current.from, '2030-01-01');
    assert.equal(current.nextCursor, null);
  });

  it('shows a rep teams has just added with no numbers yet, in teams’ order, with the next page’s cursor and the team’s totals', () => {
    const current = withCurrentReps(numbers, { reps: [rep(2, 'sipho'), rep(3, 'anele'), rep(1, 'lerato')], nextCursor: 'next' });
    assert.deepEqual(
      current.reps.map((r) => [r.username, r.views]),
      [
        ['sipho', 3],
        ['anele', 0],
        ['lerato', 5],
      ],
    );
    assert.equal(current.nextCursor, 'next');
    assert.deepEqual(current.totals, numbers.totals);
  });
});
