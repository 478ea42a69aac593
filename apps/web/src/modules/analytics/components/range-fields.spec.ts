import { describe, expect, it } from '@jest/globals';
import { ANALYTICS_MAX_DAYS } from '@digicard/contracts';
import { RANGE_ORDER_MESSAGE, RangeFormSchema } from './range-fields';

// The analytics range as typed (the owner's Analytics and the leader view): the spec's words when a date is missing
// or the start is after the end, then the contract's own checks.

const issues = (from: string, to: string) => RangeFormSchema.safeParse({ from, to }).error?.issues.map((i) => [i.path, i.message]);

describe('RangeFormSchema', () => {
  it('gives the range when both dates are real and in order (one day too)', () => {
    expect(RangeFormSchema.parse({ from: '2026-10-01', to: '2026-10-31' })).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(RangeFormSchema.parse({ from: '2026-10-01', to: '2026-10-01' })).toEqual({ from: '2026-10-01', to: '2026-10-01' });
  });

  it('a missing date, or a start after the end, is the spec’s one message on From', () => {
    expect(issues('', '2026-10-31')).toEqual([[['from'], RANGE_ORDER_MESSAGE]]);
    expect(issues('2026-10-01', '')).toEqual([[['from'], RANGE_ORDER_MESSAGE]]);
    expect(issues('2026-11-01', '2026-10-31')).toEqual([[['from'], RANGE_ORDER_MESSAGE]]);
  });

  it('then the contract’s checks: a range longer than it allows', () => {
    expect(issues('2025-01-01', '2026-10-31')).toEqual([[['from'], `Please choose at most ${ANALYTICS_MAX_DAYS} days.`]]);
  });
});
