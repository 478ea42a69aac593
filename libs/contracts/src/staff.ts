import { z } from 'zod';
import { SessionUserSchema } from './accounts.js';
import { MembershipSchema } from './profiles.js';
import { PageRequestSchema, pageOf } from './paging.js';

/**
 * The staff console (role `staff`): find an account; set partner, role (teamLeader or back to user), vanity paths,
 * and the business a profile inherits from. Every change is audited by the service that owns what changed.
 */

/** The roles staff may give: a customer becomes a team leader, or goes back to an ordinary user. */
export const StaffAssignableRoles = ['user', 'teamLeader'] as const;
export const StaffAssignableRoleSchema = z.enum(StaffAssignableRoles, { error: 'Please choose user or teamLeader.' });

/** The roles staff may take away (they are given by the command line): the account becomes an ordinary user. */
export const StaffRevocableRoles = ['print', 'staff'] as const;
export const StaffRevocableRoleSchema = z.enum(StaffRevocableRoles, { error: 'Please choose print or staff.' });
export type StaffRevocableRole = z.infer<typeof StaffRevocableRoleSchema>;

export const StaffMessages = {
  roleNotHeld: 'This account does not hold that role (any more).',
  revokeOwnRole: 'You cannot take away your own staff role: ask another staff member.',
  queryRequired: 'Please enter an email, a username or a name to search for.',
  roleNotAssignable: 'This account is print or staff, or a team member: its role is not changed here.',
  vanityFormat: 'Use only lowercase letters, digits and hyphens, starting and ending with a letter or digit (at most 64).',
  vanityReserved: 'That path is a page of the site. Please choose another.',
  vanityUsername: 'That path is already a username. Please choose another.',
  vanityTaken: 'That path already leads to another profile.',
  vanityDuplicate: 'Each path only once, please.',
  businessUnknown: 'No profile has that username.',
  businessSelf: 'A profile cannot inherit from itself.',
  businessChain: 'That profile itself inherits from a business: choose the business profile.',
  businessIsBusiness: 'Other profiles inherit from this one: it cannot inherit from a business itself.',
  accountNotFound: 'No such account.',
} as const;

export const StaffSearchSchema = z
  .object({ query: z.string({ error: StaffMessages.queryRequired }).trim().min(1, StaffMessages.queryRequired).max(100) })
  .meta({ id: 'StaffSearch' });
export type StaffSearch = z.infer<typeof StaffSearchSchema>;
/** A search as the service takes it: the query, and which page of its answers (`cursor`, `limit`). */
export const StaffSearchPageSchema = StaffSearchSchema.extend(PageRequestSchema.shape);

/** An account as staff find it: what a session holds of it, and when it was made. */
export const StaffAccountSummarySchema = SessionUserSchema.extend({ createdAt: z.iso.datetime() }).meta({ id: 'StaffAccountSummary' });
export type StaffAccountSummary = z.infer<typeof StaffAccountSummarySchema>;

/** A page of the accounts found, newest first (`?cursor=&limit=`): none is left out however many match. */
export const StaffSearchResultSchema = pageOf('accounts', StaffAccountSummarySchema).meta({ id: 'StaffSearchResult' });
export type StaffSearchResult = z.infer<typeof StaffSearchResultSchema>;

/** One audited change: who (a staff account), when, what, and the value before and after. */
export const StaffAuditEntrySchema = z
  .object({
    id: z.uuid(),
    accountId: z.uuid(),
    staffAccountId: z.uuid(),
    /** The staff member's username, as the owning service knows it (null if unknown there). */
    staffUsername: z.string().nullable(),
    change: z.enum(['role', 'partner', 'vanityPaths', 'business']),
    before: z.unknown(),
    after: z.unknown(),
    at: z.iso.datetime(),
  })
  .meta({ id: 'StaffAuditEntry' });
export type StaffAuditEntry = z.infer<typeof StaffAuditEntrySchema>;

/**
 * A page of an account's audited changes, newest first (`?cursor=&limit=`): identity's (role) and profiles' (partner,
 * vanity paths, business) as one list, none left out however many there are. `at` is to the microsecond.
 */
export const StaffAuditPageSchema = pageOf('entries', StaffAuditEntrySchema).meta({ id: 'StaffAuditPage' });
export type StaffAuditPage = z.infer<typeof StaffAuditPageSchema>;
/** Which account's changes, and which page of them. */
export const StaffAuditRequestSchema = z.object({ accountId: z.uuid() }).extend(PageRequestSchema.shape);

/** What profiles holds of an account for staff. */
export const StaffProfileViewSchema = z
  .object({
    accountId: z.uuid(),
    username: z.string(),
    membership: MembershipSchema,
    isPartner: z.boolean(),
    vanityPaths: z.array(z.string()),
    /** The business whose styling and content this profile inherits (spec: businessId), by its username. */
    businessUsername: z.string().nullable(),
  })
  .meta({ id: 'StaffProfileView' });
export type StaffProfileView = z.infer<typeof StaffProfileViewSchema>;

export const StaffIdentityViewSchema = z.object({ account: StaffAccountSummarySchema }).meta({ id: 'StaffIdentityView' });
export type StaffIdentityView = z.infer<typeof StaffIdentityViewSchema>;

/** The console's view of one account: identity's and profiles' parts (its audited changes are a list of their own). */
export const StaffAccountDetailSchema = z
  .object({
    account: StaffAccountSummarySchema,
    /** Null while the profile is not there (yet, or any more). */
    profile: StaffProfileViewSchema.nullable(),
  })
  .meta({ id: 'StaffAccountDetail' });
export type StaffAccountDetail = z.infer<typeof StaffAccountDetailSchema>;

export const SetRoleSchema = z.object({ role: StaffAssignableRoleSchema }).meta({ id: 'SetRole' });
/** The role to take away, named so that a stale screen cannot take away another one. */
export const RevokeRoleSchema = z.object({ role: StaffRevocableRoleSchema }).meta({ id: 'RevokeRole' });
export const SetPartnerSchema = z.object({ isPartner: z.boolean({ error: 'Please say yes or no.' }) }).meta({ id: 'SetPartner' });

/** A vanity path: one segment, like a username but up to 64 characters (spec: e.g. pinnacle-point-2). */
export const vanityPathField = z
  .string({ error: StaffMessages.vanityFormat })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, StaffMessages.vanityFormat);
export const SetVanityPathsSchema = z
  .object({ paths: z.array(vanityPathField).max(50, 'At most 50 paths per profile.') })
  .meta({ id: 'SetVanityPaths' });
export const SetBusinessSchema = z
  .object({
    businessUsername: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9-]{1,64}$/, StaffMessages.businessUnknown)
      .nullable(),
  })
  .meta({ id: 'SetBusiness' });

export const StaffAccountRef = z.object({ accountId: z.uuid() });

/**
 * Payments to pay back by hand (the staff console): a membership checkout given up and still paid, or one checkout
 * paid twice (two PayFast subscriptions). `reason` says which and what to do at PayFast.
 */
export const StaffRefundSchema = z.object({
  id: z.uuid(),
  accountId: z.uuid(),
  description: z.string(),
  amountCents: z.number().int(),
  pfPaymentId: z.string(),
  reason: z.string(),
  at: z.iso.datetime(),
});
export type StaffRefund = z.infer<typeof StaffRefundSchema>;
/** A page of them, newest first (`?cursor=&limit=`): none is left out however many there are. */
export const StaffRefundsSchema = pageOf('payments', StaffRefundSchema).meta({ id: 'StaffRefunds' });
export type StaffRefunds = z.infer<typeof StaffRefundsSchema>;
