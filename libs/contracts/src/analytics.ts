import { z } from 'zod';
import { NextCursorSchema, PAGE_LIMIT_MAX, pageQueryWith } from './paging.js';
import { SocialPlatforms } from './profiles.js';

/**
 * Where a view of a public page came from, read from `?src=` on the page's address: the QR code (`qr`), an NFC card
 * (`nfc`, with `card=<serial>` naming the card), a WhatsApp share (`wa`), an email share (`email`), the QR code of the
 * owner's Apple Wallet or Google Wallet pass (`wallet`, both carry it), anything else (`link`). An unknown value counts as `link`.
 */
export const AnalyticsSources = ['link', 'qr', 'nfc', 'wa', 'email', 'wallet'] as const;
export const AnalyticsSourceSchema = z.enum(AnalyticsSources);
export type AnalyticsSource = z.infer<typeof AnalyticsSourceSchema>;

/** What the public page counts: a view (by source), a view through one NFC card, Save to Contact, a click. */
export const AnalyticsMetrics = ['view', 'card', 'save', 'click'] as const;
export const AnalyticsMetricSchema = z.enum(AnalyticsMetrics);
export type AnalyticsMetric = z.infer<typeof AnalyticsMetricSchema>;

/**
 * What a click on the public page names (the page's beacon sends it): a website button by its position (at most 10),
 * a social link by its platform (one of SocialPlatforms), a share button, or the phone, email and WhatsApp links of
 * the contact details. A closed set of some 40 targets: an owner's clicks per target stay one short list however long
 * the range and whatever a script sends (a made-up `social:` name is 400, and is never stored).
 */
export const ClickTargetSchema = z
  .string()
  .regex(
    new RegExp(
      `^(website:\\d|social:(${SocialPlatforms.join('|')})|share:(wa|email|native)|contact:(tel|email)|(exchange|own-profile|lead-form))$`,
    ),
    'Unknown click target.',
  );
export const ClickSchema = z.object({ target: ClickTargetSchema }).meta({ id: 'Click' });
export type Click = z.infer<typeof ClickSchema>;

const day = z.iso.date();

/**
 * A batch of counts from one gateway replica (sent about once a second over core NATS): each entry adds `count` to
 * one metric of one page on one day (SAST); each visitor is a daily salted hash (never an address) for unique counts.
 */
export const AnalyticsBatchSchema = z.object({
  entries: z
    .array(
      z.object({
        username: z.string().max(64),
        day,
        metric: AnalyticsMetricSchema,
        key: z.string().max(64),
        count: z.number().int().min(1).max(1_000_000),
      }),
    )
    .max(5000),
  visitors: z.array(z.object({ username: z.string().max(64), day, hash: z.string().regex(/^[0-9a-f]{32}$/) })).max(5000),
});
export type AnalyticsBatch = z.infer<typeof AnalyticsBatchSchema>;

/** The longest range a report covers. */
export const ANALYTICS_MAX_DAYS = 366;
/** The totals every owner sees. */
export const ANALYTICS_SUMMARY_DAYS = 30;

/** A report's range (DigiPlatinum): both days included; without them, the last 30 days. */
export const AnalyticsRangeSchema = z
  .object({ from: day.optional(), to: day.optional() })
  .refine((r) => !r.from || !r.to || r.from <= r.to, { message: 'The start must be on or before the end.', path: ['from'] })
  .refine((r) => !r.from || !r.to || (Date.parse(r.to) - Date.parse(r.from)) / 86_400_000 < ANALYTICS_MAX_DAYS, {
    message: `Please choose at most ${ANALYTICS_MAX_DAYS} days.`,
    path: ['from'],
  })
  .meta({ id: 'AnalyticsRange' });
export type AnalyticsRange = z.infer<typeof AnalyticsRangeSchema>;

const counts = z.object({
  views: z.number().int(),
  visitors: z.number().int(),
  saves: z.number().int(),
  clicks: z.number().int(),
  leads: z.number().int(),
});
const bySource = z.object({
  link: z.number().int(),
  qr: z.number().int(),
  nfc: z.number().int(),
  wa: z.number().int(),
  email: z.number().int(),
  wallet: z.number().int(),
});

/**
 * An owner's analytics. Every owner gets the totals of the last 30 days (`full: false`, the lists empty);
 * DigiPlatinum gets any range with views by source and by NFC card, clicks per target, and one row per day.
 */
export const AnalyticsReportSchema = z
  .object({
    full: z.boolean(),
    from: day,
    to: day,
    totals: counts,
    bySource,
    cards: z.array(z.object({ serial: z.string(), views: z.number().int() })),
    clicks: z.array(z.object({ target: z.string(), count: z.number().int() })),
    daily: z.array(counts.extend({ day, bySource })),
  })
  .meta({ id: 'AnalyticsReport' });
export type AnalyticsReport = z.infer<typeof AnalyticsReportSchema>;

export const AnalyticsUpgradeMessage = 'Upgrade to DigiPlatinum to unlock analytics!';

/**
 * A team leader's roll-up (issue 11 "Leader view"), a page of reps at a time (`?cursor=&limit=`, the reps in the order
 * they joined, as the team list pages them): each rep's counts over the range, and the team's totals (every rep's,
 * on every page). The same periods as the owner's report: the last 30 days, or any range with DigiPlatinum.
 */
export const TeamAnalyticsReportSchema = z
  .object({
    full: z.boolean(),
    from: day,
    to: day,
    reps: z.array(counts.extend({ accountId: z.uuid(), username: z.string(), firstName: z.string(), lastName: z.string() })),
    totals: counts,
    nextCursor: NextCursorSchema,
  })
  .meta({ id: 'TeamAnalyticsReport' });
export type TeamAnalyticsReport = z.infer<typeof TeamAnalyticsReportSchema>;

/**
 * `?from=&to=` (YYYY-MM-DD; an empty one counts as absent, checked as AnalyticsRangeSchema) and `?cursor=&limit=` of
 * the leader view.
 */
export const TeamAnalyticsQuerySchema = pageQueryWith({ from: z.string().optional(), to: z.string().optional() });
export type TeamAnalyticsQuery = z.output<typeof TeamAnalyticsQuerySchema>;

/**
 * What the gateway asks profiles for one page of the leader view: the range, and the reps of the page (teams' list,
 * at most a page of them). Profiles answers the counts of those of them that show the leader's business (nobody
 * else's), and the team's totals over every rep it counts as the leader's.
 */
export const TeamAnalyticsRequestSchema = AnalyticsRangeSchema.safeExtend({
  accountIds: z.array(z.uuid()).max(PAGE_LIMIT_MAX),
});
export type TeamAnalyticsRequest = z.infer<typeof TeamAnalyticsRequestSchema>;

export const TeamAnalyticsNumbersSchema = z.object({
  full: z.boolean(),
  from: day,
  to: day,
  reps: z.array(counts.extend({ accountId: z.uuid() })).max(PAGE_LIMIT_MAX),
  totals: counts,
});
export type TeamAnalyticsNumbers = z.infer<typeof TeamAnalyticsNumbersSchema>;
