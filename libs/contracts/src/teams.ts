import { z } from 'zod';
import { newPasswordField, usernameField } from './accounts.js';
import { emailAddress, phoneNumber } from './fields.js';
import { pageOf } from './paging.js';

/**
 * Teams (spec sections 2, 3, 7, 8): a team leader's sales reps. The teams service keeps who leads whom; identity
 * keeps the reps' accounts; profiles shows each rep's page with the leader's business (libs/domain `withBusiness`).
 */
export const TeamMessages = {
  fillAllFields: 'Please fill in all fields.',
  passwordRequired: 'Password required to confirm.',
  repAdded: 'Sales rep added successfully!',
  repsAdded: 'Sales reps added successfully!',
  repUpdated: 'Rep updated!',
  repDeleted: 'Sales rep deleted.',
  noSuchRep: 'No such sales rep in your team.',
  businessLocked: 'Managed by your team leader.',
  /** A team leader whose tier is not DigiPlatinum (it lapsed, or staff made them a leader without it). */
  needsPlatinum: 'Teams are part of DigiPlatinum. Please upgrade to DigiPlatinum to manage your team.',
} as const;

const repName = (label: string) =>
  z
    .string({ error: TeamMessages.fillAllFields })
    .trim()
    .min(1, TeamMessages.fillAllFields)
    .max(60, `Please keep the ${label} under 60 characters.`);

/** What a leader types for a rep, and can change later. */
export const RepFieldsSchema = z.object({
  username: usernameField,
  firstName: repName('first name'),
  lastName: repName('last name'),
  email: emailAddress,
  tel: phoneNumber,
});
export type RepFields = z.infer<typeof RepFieldsSchema>;

/** The rep's first password is optional: the welcome email lets them choose their own. */
const optionalPassword = z.union([z.literal(''), newPasswordField]).default('');
const leaderPassword = z.string({ error: TeamMessages.passwordRequired }).min(1, TeamMessages.passwordRequired).max(1024);

export const AddRepRequestSchema = RepFieldsSchema.extend({ password: optionalPassword, leaderPassword }).meta({ id: 'AddRepRequest' });
export type AddRepRequest = z.infer<typeof AddRepRequestSchema>;

export const MAX_IMPORTED_REPS = 200;

/**
 * Many reps at once (from a CSV the browser read): `dryRun` checks every row and creates nothing (the preview);
 * otherwise all rows are created, or none. Field errors are named `reps.<row>.<field>`, rows counted from 0.
 */
export const ImportRepsRequestSchema = z
  .object({
    reps: z
      .array(RepFieldsSchema.extend({ password: optionalPassword }))
      .min(1, 'The file has no reps in it.')
      .max(MAX_IMPORTED_REPS, `At most ${MAX_IMPORTED_REPS} reps at once.`),
    leaderPassword,
    dryRun: z.boolean().default(false),
  })
  .meta({ id: 'ImportRepsRequest' });
export type ImportRepsRequest = z.infer<typeof ImportRepsRequestSchema>;

export const RepSchema = RepFieldsSchema.extend({
  accountId: z.uuid(),
  addedAt: z.iso.datetime(),
  /** False while the company's identity provider has the rep deactivated (SCIM): signed out, page hidden. */
  active: z.boolean(),
}).meta({ id: 'Rep' });
export type Rep = z.infer<typeof RepSchema>;

/** A page of the leader's reps, in the order they joined. */
export const TeamSchema = pageOf('reps', RepSchema).meta({ id: 'Team' });
export type Team = z.infer<typeof TeamSchema>;

export const ImportRepsResultSchema = z.object({ created: z.boolean(), reps: z.array(RepFieldsSchema) }).meta({ id: 'ImportRepsResult' });
export type ImportRepsResult = z.infer<typeof ImportRepsResultSchema>;

export const RepRefSchema = z.object({ accountId: z.uuid() });

/** The columns of a reps CSV, in order (a header row naming them is expected). */
export const RepCsvColumns = ['username', 'firstName', 'lastName', 'email', 'tel', 'password'] as const;
