import { MembershipSchema, type Lead, type Membership, type OwnProfile, type PublicProfile } from '@digicard/contracts';
import { FREE_TIER, InheritedFields, publicFeatures, storedDocument, visibleContent, withBusiness } from '@digicard/domain';
import type { LeadRow } from './leads.repository.js';
import type { ProfileRow } from './profiles.repository.js';

export const membershipOf = (row: ProfileRow): Membership => MembershipSchema.catch(FREE_TIER).parse(row.membership);

export const documentOf = (row: ProfileRow) => storedDocument(row.document);

/** A team rep's tier is their leader's (decisions.md "Roles"); everyone else's is their own. */
export const effectiveMembership = (row: ProfileRow, business: ProfileRow | null): Membership => membershipOf(business ?? row);

/**
 * The owner's view in the editor. A rep sees the business fields as their leader set them (locked, `managedBy`):
 * the document is the rep's own fields with the business's.
 */
export const toOwn = (row: ProfileRow, business: ProfileRow | null = null): OwnProfile => ({
  username: row.username,
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
  membership: effectiveMembership(row, business),
  isVerified: row.isVerified,
  isPublic: row.isPublic,
  // A rep's tier is the team's: never theirs to switch.
  isPartner: row.isPartner && !business,
  document: withBusiness(documentOf(row), business ? documentOf(business) : null),
  updatedAt: row.updatedAt.toISOString(),
  ...(business
    ? {
        managedBy: {
          accountId: business.accountId,
          username: business.username,
          businessName: documentOf(business).businessName || `${business.firstName} ${business.lastName}`.trim(),
          fields: [...InheritedFields],
        },
      }
    : {}),
});

/**
 * What a visitor may see: content the owner's tier does not include is removed here, not only hidden. A profile
 * with a business (a team member) shows the business's styling and content, and shares its tier.
 */
export function toPublic(row: ProfileRow, business: ProfileRow | null = null): PublicProfile {
  const membership = membershipOf(business ?? row);
  const document = withBusiness(documentOf(row), business ? documentOf(business) : null);
  return {
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    membership,
    features: publicFeatures(membership),
    document: visibleContent(document, membership),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const toLead = (row: LeadRow): Lead => ({
  id: row.id,
  kind: row.kind,
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
  phone: row.phone,
  message: row.message,
  createdAt: row.createdAt.toISOString(),
  ...('rep' in row && typeof row.rep === 'string' ? { rep: row.rep } : {}),
});
