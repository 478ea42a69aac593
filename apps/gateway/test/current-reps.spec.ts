import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { Team, TeamAnalyticsReport } from '@digicard/contracts';
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
const row = (n: number, username: string, views: number) => ({
  accountId: id(n),
  username,
  firstName: username,
  lastName: 'Rep',
  views,
  saves: 1,
  leads: 2,
  visitors: views,
  clicks: 0,
});

describe('the leader view as the team is now', () => {
  const report: TeamAnalyticsReport = {
    full: true,
    from: '2030-01-01',
    to: '2030-01-30',
    reps: [row(1, 'lerato', 5), row(2, 'sipho', 3)],
    totals: { views: 8, saves: 2, leads: 4, visitors: 8, clicks: 0 },
  };

  it('leaves out a rep teams has removed (profiles has not heard yet), and the totals with them', () => {
    const current = withCurrentReps(report, { reps: [rep(2, 'sipho')] });
    assert.deepEqual(
      current.reps.map((r) => r.username),
      ['sipho'],
    );
    assert.deepEqual(current.totals, { views: 3, saves: 1, leads: 2, visitors: 3, clicks: 0 });
    assert.equal(current.from, '2030-01-01');
  });

  it('shows a rep teams has just added with no numbers yet, in username order', () => {
    const current = withCurrentReps(report, { reps: [rep(2, 'sipho'), rep(3, 'anele'), rep(1, 'lerato')] });
    assert.deepEqual(
      current.reps.map((r) => [r.username, r.views]),
      [
        ['anele', 0],
        ['lerato', 5],
        ['sipho', 3],
      ],
    );
    assert.equal(current.totals.views, 8);
  });
});
