/**
 * The South African calendar, written once: analytics days, PayFast's billing dates and "today" in every form are
 * SAST dates. South Africa keeps UTC+2 all year (no daylight saving), so a fixed offset is exact and needs no time
 * zone database (the browser bundle stays small).
 */
const SAST_OFFSET_MS = 2 * 3_600_000;
const DAY_MS = 86_400_000;

/** The calendar date (YYYY-MM-DD) in South Africa of an instant; today's by default. */
export const saDay = (at: Date = new Date()): string => new Date(at.getTime() + SAST_OFFSET_MS).toISOString().slice(0, 10);

/** The South African date `days` days before the day of `at` (today's by default). */
export const saDaysBefore = (days: number, at: Date = new Date()): string => saDay(new Date(at.getTime() - days * DAY_MS));

/** The instant the South African day holding `at` ends (its next midnight: 22:00 UTC). */
export const endOfSaDay = (at: Date): Date =>
  new Date((Math.floor((at.getTime() + SAST_OFFSET_MS) / DAY_MS) + 1) * DAY_MS - SAST_OFFSET_MS);

/** An instant as ISO-8601 in South African time, to the second: `2026-11-23T16:00:00+02:00`. */
export const saTimestamp = (at: Date): string => `${new Date(at.getTime() + SAST_OFFSET_MS).toISOString().slice(0, 19)}+02:00`;

/** Midnight at the start of a South African date (YYYY-MM-DD). */
export const startOfSaDay = (isoDate: string): Date => new Date(`${isoDate}T00:00:00+02:00`);

/** South Africa's time zone, for showing an instant as a person here reads it (`Intl.DateTimeFormat`'s `timeZone`). */
export const SA_TIME_ZONE = 'Africa/Johannesburg';
