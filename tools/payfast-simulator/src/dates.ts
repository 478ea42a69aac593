/** Subscription frequencies as PayFast numbers them. */
export const FREQUENCIES: Readonly<Record<number, string>> = {
  1: 'Daily',
  2: 'Weekly',
  3: 'Monthly',
  4: 'Quarterly',
  5: 'Biannually',
  6: 'Annually',
};

/** Today in South Africa (PayFast's clock), as YYYY-MM-DD. */
export function todayInSouthAfrica(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Johannesburg' }).format(now);
}

/** A real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

const addMonths = (date: Date, months: number): Date => {
  const day = date.getUTCDate();
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  // Clamp to the month's last day, so 31 January plus a month is 28 (or 29) February, not 3 March.
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
};

/** The run date after `date` for a frequency (1 daily … 6 annually). */
export function nextRunDate(date: string, frequency: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  const next =
    frequency === 1
      ? new Date(d.getTime() + 86_400_000)
      : frequency === 2
        ? new Date(d.getTime() + 7 * 86_400_000)
        : addMonths(d, { 3: 1, 4: 3, 5: 6, 6: 12 }[frequency] ?? 1);
  return next.toISOString().slice(0, 10);
}

/** `2026-07-01` → `1 July 2026`. */
export function formatDate(date: string): string {
  return new Intl.DateTimeFormat('en-ZA', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );
}
