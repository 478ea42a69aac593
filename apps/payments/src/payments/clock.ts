import { saDay, startOfSaDay } from '@digicard/domain';

/** The time, injectable: the lapse job and ITN retries read it, and the tests move it. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** The calendar date in South Africa (PayFast's billing dates are SAST dates), YYYY-MM-DD: libs/domain's calendar. */
export const johannesburgDate = (at: Date): string => saDay(at);

/** The same day `months` later (clamped to the month's end: 31 Jan + 1 month = 28/29 Feb). */
export function addMonths(at: Date, months: number): Date {
  const d = new Date(at.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

export function addDateMonths(isoDate: string, months: number): string {
  return addMonths(new Date(`${isoDate}T00:00:00Z`), months)
    .toISOString()
    .slice(0, 10);
}

/** Midnight at the start of a SAST date (UTC+2 all year). */
export const startOfJohannesburgDay = startOfSaDay;

export const addDays = (at: Date, days: number): Date => new Date(at.getTime() + days * 86_400_000);
