import {
  boolean,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
import { sql } from 'drizzle-orm';
import type { ProfileDocument } from '@digicard/contracts';
import { messagingTables } from '@digicard/messaging';

/** The profiles service's schema: each owner's profile document, and what it keeps of the owner's account. */
export const schema = pgSchema('profiles');
export const { outbox, processedMessages } = messagingTables(schema);

export const profiles = schema.table(
  'profiles',
  {
    accountId: uuid('account_id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    role: text('role').notNull(),
    /** The owner's tier: payments decides it (`memberships` below keeps what it said); partners set their own. */
    membership: text('membership').notNull().default('DigiShare'),
    isVerified: boolean('is_verified').notNull().default(false),
    isPublic: boolean('is_public').notNull().default(true),
    /** The business whose styling and content this profile shows (a team member's leader): spec's businessId. */
    businessAccountId: uuid('business_account_id'),
    /** Partners (spec: isPartner) change their tier without paying. Set by staff. */
    isPartner: boolean('is_partner').notNull().default(false),
    /**
     * A rep their company's identity provider deactivated (SCIM, `teams.member.suspended`): the page is hidden from
     * everyone, whatever `is_public` says, until reactivated (`teams.member.reinstated`). Nothing else changes.
     */
    suspendedAt: timestamp('suspended_at', { withTimezone: true, mode: 'date' }),
    document: jsonb('document').$type<ProfileDocument>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('profiles_username_idx').on(t.username), index('profiles_business_idx').on(t.businessAccountId)],
);

/**
 * What identity said of an account besides its registration: verified, deleted. Identity's events come through
 * separate consumers, so `user.verified` or `user.deleted` can arrive before `user.registered`: kept here, they are
 * applied when the registration arrives (a verified profile; or no profile at all for a deleted account).
 */
export const accountFacts = schema.table('account_facts', {
  accountId: uuid('account_id').primaryKey(),
  verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
  deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  /** The team leader whose business a rep's profile shows (`teams.member.added`), and the phone the leader gave. */
  businessAccountId: uuid('business_account_id'),
  teamTel: text('team_tel'),
  /** The job title the team's identity provider last gave the rep (SCIM `title`), for a profile made after it. */
  teamTitle: text('team_title'),
  /**
   * The rep's deactivation by their team's identity provider (`teams.member.suspended` / `.reinstated`): when it was
   * said and what (null: active). An older one delivered late is skipped, and one that arrives before the profile
   * exists (a user created with `active: false`) is applied when it is created.
   */
  suspensionChangedAt: timestamp('suspension_changed_at', { withTimezone: true, mode: 'date' }),
  suspendedAt: timestamp('suspended_at', { withTimezone: true, mode: 'date' }),
  /**
   * The latest `identity.user.changed` applied (its time and what it said): an older change delivered late is
   * skipped, and a change that arrives before the profile exists is applied when it is created.
   */
  accountChangedAt: timestamp('account_changed_at', { withTimezone: true, mode: 'date' }),
  account: jsonb('account').$type<AccountNamesFact>(),
});

/** An account's username, email and names as identity last said them. */
export interface AccountNamesFact {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
}

/**
 * What the payments service last said of each account's tier (`payments.membership.changed`), with its version: a
 * change older than the one kept is ignored, and a change that arrives before the account's profile exists is kept
 * here and applied when the profile is created. Events of one account may arrive in any order.
 */
export const memberships = schema.table('memberships', {
  accountId: uuid('account_id').primaryKey(),
  membership: text('membership').notNull(),
  paidUntil: timestamp('paid_until', { withTimezone: true, mode: 'date' }),
  version: integer('version').notNull(),
  changedAt: timestamp('changed_at', { withTimezone: true, mode: 'date' }).notNull(),
});

export const mediaPurpose = schema.enum('media_purpose', ['profileImage', 'profileBackground', 'businessLogo', 'gallery', 'product']);

/**
 * Uploaded images, already checked and re-encoded by the gateway (no metadata). Kept in PostgreSQL so every
 * replica reads the same bytes; served with year-long cache headers under immutable ids.
 */
export const media = schema.table(
  'media',
  {
    id: text('id').primaryKey(),
    accountId: uuid('account_id').notNull(),
    purpose: mediaPurpose('purpose').notNull(),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('media_account_idx').on(t.accountId)],
);

export const leadKind = schema.enum('lead_kind', ['lead', 'exchange', 'own-profile']);

/** What visitors leave on a profile: the owner's leads. */
export const leads = schema.table(
  'leads',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id').notNull(),
    kind: leadKind('kind').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    message: text('message').notNull(),
    /** The consent the form showed, word for word, and when the visitor gave it (POPIA). */
    consentText: text('consent_text').notNull().default(''),
    consentAt: timestamp('consent_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** A lead of a rep who left the team: kept with the leader (`account_id`), with the rep's username. */
    formerRep: text('former_rep'),
    /** The visitor's browser's key of the form submission: a retry of it is answered with this lead, not stored again. */
    idempotencyKey: text('idempotency_key'),
  },
  (t) => [index('leads_account_idx').on(t.accountId, t.createdAt), uniqueIndex('leads_idempotency_key_idx').on(t.idempotencyKey)],
);

/**
 * Analytics, one row per owner, SAST day, metric and key, counted up: views by source (`view`, key `link`, `qr`,
 * `nfc`, `wa`, `email`), views through each NFC card (`card`, key its serial), Save to Contact (`save`), clicks
 * (`click`, key the target). The gateway counts and sends batches; no row names a visitor.
 */
export const analyticsDaily = schema.table(
  'analytics_daily',
  {
    accountId: uuid('account_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    metric: text('metric').notNull(),
    key: text('key').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day, t.metric, t.key] })],
);

/** Unique visitors: a daily salted hash per visitor (the salt lives a day or two in Redis; no address is kept). */
export const analyticsVisitors = schema.table(
  'analytics_visitors',
  {
    accountId: uuid('account_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day, t.hash] })],
);

/**
 * Which page each printed card opens (orders' `orders.cards.assigned`: the rep a leader gave it to, else its buyer),
 * with the time of that assignment so an older one never replaces a newer. Views through `?card=` are counted only
 * for a serial of the page viewed: made-up serials and other people's cards add nothing to an owner's analytics.
 */
export const cardSerials = schema.table(
  'card_serials',
  {
    serial: text('serial').primaryKey(),
    accountId: uuid('account_id').notNull(),
    assignedAt: timestamp('assigned_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('card_serials_account_idx').on(t.accountId)],
);

/** Fixed paths such as pinnacle-point-2 that lead to a profile. */
export const vanityPaths = schema.table('vanity_paths', {
  path: text('path').primaryKey(),
  accountId: uuid('account_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Every change staff make to a profile here (partner, vanity paths, the business it inherits from): who, when, what,
 * the value before and after.
 */
export const staffAudit = schema.table(
  'staff_audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').notNull(),
    staffAccountId: uuid('staff_account_id').notNull(),
    change: text('change').$type<'partner' | 'vanityPaths' | 'business'>().notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('staff_audit_account_idx').on(t.accountId, t.at)],
);

/**
 * Apple Wallet passes (issue 26): at most one live pass per account, made the first time its owner adds the card to
 * Wallet. The serial and the token are random (they say nothing about the account); the token is what a device
 * shows in `Authorization: ApplePass <token>`. `content_hash` is a digest of what the pass shows, so that only a
 * change of it bumps `updated_at` (whole seconds, rising by at least one each time: Last-Modified and the
 * `passesUpdatedSince` tag). A voided pass (the account deleted) has no account any more; it is served as void to
 * the devices still holding it, and deleted with its registrations after APPLE_VOIDED_PASS_KEEP_HOURS.
 */
export const applePasses = schema.table(
  'apple_passes',
  {
    serialNumber: text('serial_number').primaryKey(),
    accountId: uuid('account_id'),
    passTypeIdentifier: text('pass_type_identifier').notNull(),
    authenticationToken: text('authentication_token').notNull(),
    contentHash: text('content_hash').notNull(),
    /** Seconds since the epoch of the last change of what the pass shows. */
    updatedAt: integer('updated_at').notNull(),
    /**
     * The `updated_at` whose pushes are queued: behind `updated_at`, the devices are owed a push (queued after the
     * commit; queued again by the sweeper when Redis refused it).
     */
    pushesQueuedFor: integer('pushes_queued_for').notNull().default(0),
    voidedAt: timestamp('voided_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('apple_passes_account_idx')
      .on(t.accountId, t.passTypeIdentifier)
      .where(sql`voided_at IS NULL`),
  ],
);

/** The devices that asked for pushes about a pass (Apple's registration): one row per device and pass. */
export const applePassRegistrations = schema.table(
  'apple_pass_registrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceLibraryIdentifier: text('device_library_identifier').notNull(),
    serialNumber: text('serial_number').notNull(),
    pushToken: text('push_token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'apple_pass_registrations_pass_fk',
      columns: [t.serialNumber],
      foreignColumns: [applePasses.serialNumber],
    }).onDelete('cascade'),
    uniqueIndex('apple_pass_registrations_device_pass_idx').on(t.deviceLibraryIdentifier, t.serialNumber),
    index('apple_pass_registrations_pass_idx').on(t.serialNumber),
  ],
);

/**
 * Google Wallet pass objects (issue 26): at most one live object per account, made the first time its owner asks for
 * the Save to Google Wallet link. The object's id at Google is `<issuer id>.<object_suffix>`, the suffix random (it says
 * nothing about the account). `content_hash` is a digest of what the object shows, so that only a change of it moves
 * `version` on and queues a write through the Wallet REST API (`google-wallet-sync`); `writes_queued_for` is the
 * version whose write is queued (behind `version`: owed, queued again by the sweeper). A voided object (the account
 * deleted, or the rep removed) has no account any more; its expiry is written to Google, and the row deleted
 * GOOGLE_WALLET_VOIDED_OBJECT_KEEP_HOURS after it was voided (once that expiry is queued).
 */
export const googleWalletObjects = schema.table(
  'google_wallet_objects',
  {
    objectSuffix: text('object_suffix').primaryKey(),
    accountId: uuid('account_id'),
    classId: text('class_id').notNull(),
    contentHash: text('content_hash').notNull(),
    version: integer('version').notNull().default(1),
    writesQueuedFor: integer('writes_queued_for').notNull().default(0),
    voidedAt: timestamp('voided_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('google_wallet_objects_account_idx')
      .on(t.accountId, t.classId)
      .where(sql`voided_at IS NULL`),
  ],
);
