import { describe, expect, it } from '@jest/globals';
import { MoveOrderSchema, movesFrom, NfcUidSchema, OrderMoves, OrderStatuses } from '../src/index.js';

describe('order moves', () => {
  it('lets only the owner answer a proof and only the system make one ready', () => {
    expect(movesFrom('proof-ready', 'owner').sort()).toEqual(['approved', 'changes-requested']);
    expect(movesFrom('proof-ready', 'print').sort()).toEqual(['cancelled', 'refunded']);
    expect(movesFrom('paid', 'system')).toEqual(['proof-ready']);
    expect(movesFrom('paid', 'owner')).toEqual([]);
  });

  it('walks the print team from approved to delivered, one step at a time, and ends there', () => {
    expect(movesFrom('approved', 'print')).toContain('printing');
    expect(movesFrom('printing', 'print')).toContain('nfc-encoded');
    expect(movesFrom('nfc-encoded', 'print')).toEqual(['shipped']);
    expect(movesFrom('shipped', 'print')).toEqual(['delivered']);
    for (const end of ['delivered', 'refunded'] as const) expect(OrderMoves.filter((m) => m.from === end)).toEqual([]);
  });

  it('names only states that exist, never a move to the same state', () => {
    for (const move of OrderMoves) {
      expect(OrderStatuses).toContain(move.from);
      expect(OrderStatuses).toContain(move.to);
      expect(move.from).not.toBe(move.to);
    }
  });
});

describe('print console input', () => {
  it('reads an NFC UID with or without separators, in either case', () => {
    expect(NfcUidSchema.parse('04:a2:3b:1c:5d:80:00')).toBe('04A23B1C5D8000');
    expect(NfcUidSchema.parse(' 04a23b1c ')).toBe('04A23B1C');
    expect(NfcUidSchema.safeParse('04:A2:3B').success).toBe(false);
    expect(NfcUidSchema.safeParse('zz:zz:zz:zz').success).toBe(false);
  });

  it('needs the courier and tracking number to ship, and only then', () => {
    const shipped = MoveOrderSchema.safeParse({ to: 'shipped' });
    expect(shipped.success).toBe(false);
    expect(shipped.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['courier', 'trackingNumber']);
    expect(MoveOrderSchema.safeParse({ to: 'printing' }).success).toBe(true);
    expect(MoveOrderSchema.safeParse({ to: 'shipped', courier: 'Aramex', trackingNumber: 'A1' }).success).toBe(true);
  });
});
