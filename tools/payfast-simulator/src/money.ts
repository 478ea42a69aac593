import { formatCents } from '@digicard/payfast';

/** `"1234.5"` or `"1234.56"` rand to cents, exactly (no floats); undefined for anything else. */
export function parseRand(value: string): number | undefined {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Cents as South Africans write rand: `123456` → `R 1 234.56` (space-grouped thousands, point for cents). */
export function formatRand(cents: number): string {
  const [rand = '0', rest = '00'] = formatCents(cents).split('.');
  return `R ${rand.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')}.${rest}`;
}

/**
 * The fee the simulator charges, in cents: 2.3 % of the gross, rounded. PayFast's real fees depend on the payment
 * method and the merchant's plan; the ITN only needs a plausible, consistent fee and net.
 */
export function feeCents(grossCents: number): number {
  return Math.round((grossCents * 23) / 1000);
}

/** PayFast reports the fee as a negative amount (`-2.30`); a zero fee is `0.00`. */
export function formatFee(cents: number): string {
  return cents === 0 ? '0.00' : `-${formatCents(cents)}`;
}
