/**
 * The South African calendar, written once: analytics days, PayFast's billing dates and "today" in every form are
 * SAST dates. South Africa keeps UTC+2 all year (no daylight saving), so a fixed offset is exact and needs no time
 * zone database (the browser bundle stays small).
 */
const SAST_OFFSET_MS = 2 * 3_600_000;

/** The calendar date (YYYY-MM-DD) in South Africa of an instant; today's by default. */
export const saDay = (at: Date = new Date()): string => new Date(at.getTime() + SAST_OFFSET_MS).toISOString().slice(0, 10);

/** Midnight at the start of a South African date (YYYY-MM-DD). */
export const startOfSaDay = (isoDate: string): Date => new Date(`${isoDate}T00:00:00+02:00`);

/** South Africa's time zone, for showing an instant as a person here reads it (`Intl.DateTimeFormat`'s `timeZone`). */
export const SA_TIME_ZONE = 'Africa/Johannesburg';
