import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  ErrorCode,
  Events,
  MembershipSchema,
  ProfileDefaults,
  ProfileDocumentSchema,
  UpgradeMessages,
  hasFeature,
  type ImagePurpose,
  type Lead,
  type LeadSubmission,
  type Membership,
  type OwnProfile,
  type ProfileDocument,
  type PublicProfile,
  type ViewSource,
} from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay, type Transaction } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import { outbox } from '../db/schema.js';
import { ProfilesRepository, type LeadRow, type ProfileRow } from './profiles.repository.js';

const membershipOf = (row: ProfileRow): Membership => MembershipSchema.catch('DigiShare').parse(row.membership);

/** A stored document read with today's schema; fields added since it was written take their defaults. */
const documentOf = (row: ProfileRow): ProfileDocument => ProfileDocumentSchema.parse({ ...ProfileDefaults, ...row.document });

const toOwn = (row: ProfileRow): OwnProfile => ({
  username: row.username,
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
  membership: membershipOf(row),
  isVerified: row.isVerified,
  isPublic: row.isPublic,
  document: documentOf(row),
  updatedAt: row.updatedAt.toISOString(),
});

/** What a profile takes from the business it belongs to (spec sections 3 and 7): its styling and business content. */
const INHERITED = [
  'businessName', 'businessLogo', 'businessLogoWidth', 'profileBackground', 'opacityValue', 'videoLink', 'websiteLinks',
  'socialLinks', 'gallery', 'products', 'profileBackgroundColor', 'mainFontColor', 'profileBioFont', 'profileBioBackground',
  'buttonBackgroundColor', 'buttonFontColor', 'buttonBorderColor', 'buttonBorderWidth', 'dropdownFormsBackground',
  'sendBtnBackgroundColor', 'sendBtnFontColor',
] as const satisfies ReadonlyArray<keyof ProfileDocument>;

/**
 * What a visitor may see: content the owner's tier does not include is removed here, not only hidden. A profile
 * with a business (a team member) shows the business's styling and content, and shares its tier.
 */
export function toPublic(row: ProfileRow, business: ProfileRow | null = null): PublicProfile {
  const membership = membershipOf(business ?? row);
  const own = documentOf(row);
  const inherited = business ? documentOf(business) : null;
  const doc: ProfileDocument = inherited ? { ...own, ...Object.fromEntries(INHERITED.map((k) => [k, inherited[k]])) } : own;
  const features = {
    socialLinks: hasFeature(membership, 'socialLinks'),
    leadForm: hasFeature(membership, 'leadForm'),
    gallery: hasFeature(membership, 'gallery'),
    video: hasFeature(membership, 'video'),
    products: hasFeature(membership, 'products'),
  };
  return {
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    membership,
    features,
    document: {
      ...doc,
      socialLinks: features.socialLinks ? doc.socialLinks : [],
      gallery: features.gallery ? doc.gallery : [],
      videoLink: features.video ? doc.videoLink : '',
      products: features.products ? doc.products : [],
    },
    updatedAt: row.updatedAt.toISOString(),
  };
}

const toLead = (row: LeadRow): Lead => ({
  id: row.id,
  kind: row.kind,
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
  phone: row.phone,
  message: row.message,
  createdAt: row.createdAt.toISOString(),
});

const notFound = () => ServiceError.notFound('Profile not found.');

@Injectable()
export class ProfilesService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
  ) {}

  private async own(accountId: string): Promise<ProfileRow> {
    const row = await this.profiles.byAccount(this.db, accountId);
    if (!row) throw notFound();
    return row;
  }

  /** Every change goes out as `profiles.profile.updated`, so cached public pages are dropped at once. */
  private async change(accountId: string, work: (tx: Transaction) => Promise<ProfileRow | null>): Promise<ProfileRow> {
    const row = await this.db.transaction(async (tx) => {
      const updated = await work(tx);
      if (!updated) return null;
      await recordEvent(tx, outbox, Events.profileUpdated, {
        accountId,
        username: updated.username,
        updatedAt: updated.updatedAt.toISOString(),
      });
      return updated;
    });
    if (!row) throw notFound();
    this.relay.kick();
    return row;
  }

  async get(accountId: string): Promise<OwnProfile> {
    return toOwn(await this.own(accountId));
  }

  /** Saves the whole document (the editor's Save): refused, not silently trimmed, when it uses what the tier lacks. */
  async save(accountId: string, document: ProfileDocument): Promise<OwnProfile> {
    const current = await this.own(accountId);
    const membership = membershipOf(current);
    if (document.socialLinks.length > 0 && !hasFeature(membership, 'socialLinks')) throw ServiceError.forbidden(UpgradeMessages.socialLinks);
    if (document.gallery.some((g) => g.imageUrl) && !hasFeature(membership, 'gallery')) throw ServiceError.forbidden(UpgradeMessages.gallery);
    if (document.videoLink && !hasFeature(membership, 'video')) throw ServiceError.forbidden(UpgradeMessages.video);
    if (document.products.length > 0 && !hasFeature(membership, 'products')) throw ServiceError.forbidden(UpgradeMessages.products);
    await this.assertOwnMedia(accountId, document);
    return toOwn(await this.change(accountId, (tx) => this.profiles.update(tx, accountId, { document })));
  }

  /** Image URLs in a document must be this owner's uploads. */
  private async assertOwnMedia(accountId: string, doc: ProfileDocument): Promise<void> {
    const urls = [doc.profileImage, doc.profileBackground, doc.businessLogo, ...doc.gallery.map((g) => g.imageUrl), ...doc.products.map((p) => p.imageUrl)];
    for (const url of urls.filter(Boolean)) {
      const id = /^\/media\/([A-Za-z0-9_-]+)\./.exec(url)?.[1];
      const row = id ? await this.profiles.mediaById(this.db, id) : null;
      if (!row || row.accountId !== accountId) {
        throw new ServiceError({ statusCode: 400, code: ErrorCode.ValidationFailed, message: 'An image in the profile is not one of your uploads. Please upload it again.' });
      }
    }
  }

  /**
   * isPublic and the membership. DigiShare (the free tier) and any tier for a partner are written at once; other
   * paid tiers are granted by payment events (PayFast, with the payments work).
   */
  async saveSettings(accountId: string, isPublic: boolean, membership: Membership): Promise<OwnProfile> {
    const current = await this.own(accountId);
    if (membership !== membershipOf(current) && membership !== 'DigiShare' && !current.isPartner) {
      throw ServiceError.forbidden(`${membership} is paid by PayFast; online payment opens soon.`);
    }
    return toOwn(await this.change(accountId, (tx) => this.profiles.update(tx, accountId, { isPublic, membership })));
  }

  /** Stores an uploaded image; the profile image, cover and logo take it at once (the spec's immediate write). */
  async storeImage(accountId: string, purpose: ImagePurpose, contentType: string, data: Buffer, width: number, height: number): Promise<{ url: string }> {
    const current = await this.own(accountId);
    if (purpose === 'gallery' && !hasFeature(membershipOf(current), 'gallery')) throw ServiceError.forbidden(UpgradeMessages.gallery);
    if (purpose === 'product' && !hasFeature(membershipOf(current), 'products')) throw ServiceError.forbidden(UpgradeMessages.products);
    const id = randomBytes(16).toString('base64url');
    const ext = contentType.split('/')[1] ?? 'webp';
    const url = `/media/${id}.${ext}`;
    const immediate = purpose === 'profileImage' || purpose === 'profileBackground' || purpose === 'businessLogo';
    await this.change(accountId, async (tx) => {
      await this.profiles.insertMedia(tx, { id, accountId, purpose, contentType, bytes: data, width, height });
      const document = { ...documentOf(current), ...(immediate ? { [purpose]: url } : {}) };
      return this.profiles.update(tx, accountId, { document });
    });
    return { url };
  }

  async media(id: string): Promise<{ contentType: string; dataBase64: string }> {
    const row = await this.profiles.mediaById(this.db, id);
    if (!row) throw ServiceError.notFound('No such image.');
    return { contentType: row.contentType, dataBase64: row.bytes.toString('base64') };
  }

  /**
   * A profile as a visitor sees it. Private and unverified profiles are shown to their owner only (with
   * `shareable: false` so the page can say why); to anyone else they do not exist.
   */
  async publicProfile(username: string, viewerId: string | null, source: ViewSource | null) {
    const row = await this.profiles.byUsername(this.db, username.toLowerCase());
    if (!row) throw notFound();
    const isOwner = viewerId === row.accountId;
    const shareable = row.isPublic && row.isVerified;
    if (!shareable && !isOwner) throw notFound();
    if (source && !isOwner) await this.profiles.recordView(this.db, row.accountId, source);
    const business = row.businessAccountId ? await this.profiles.byAccount(this.db, row.businessAccountId) : null;
    return { profile: toPublic(row, business), isOwner, shareable };
  }

  async recordViewOf(username: string, source: ViewSource, count: number): Promise<void> {
    const row = await this.profiles.byUsername(this.db, username);
    if (row) await this.profiles.recordView(this.db, row.accountId, source, count);
  }

  /** A vanity path or an account id leads to the username. */
  async resolvePath(path: string): Promise<{ username: string }> {
    const accountId = /^[0-9a-f-]{36}$/.test(path) ? path : await this.profiles.vanityAccount(this.db, path);
    const row = accountId ? await this.profiles.byAccount(this.db, accountId) : null;
    if (!row) throw notFound();
    return { username: row.username };
  }

  async submitLead(username: string, submission: LeadSubmission): Promise<{ id: string }> {
    const row = await this.profiles.byUsername(this.db, username.toLowerCase());
    if (!row || !row.isPublic || !row.isVerified) throw notFound();
    const business = row.businessAccountId ? await this.profiles.byAccount(this.db, row.businessAccountId) : null;
    if (submission.kind === 'lead' && !hasFeature(membershipOf(business ?? row), 'leadForm')) throw ServiceError.forbidden(UpgradeMessages.leadForm);
    const id = randomUUID();
    // A robot filled in the field people never see: answer as if stored, keep nothing.
    if (submission.website) return { id };
    await this.db.transaction(async (tx) => {
      const lead = await this.profiles.insertLead(tx, {
        id,
        accountId: row.accountId,
        kind: submission.kind,
        firstName: submission.firstName,
        lastName: submission.lastName,
        email: submission.email,
        phone: submission.phone,
        message: submission.message,
      });
      await recordEvent(tx, outbox, Events.leadCaptured, {
        leadId: lead.id,
        accountId: row.accountId,
        ownerEmail: row.email,
        ownerFirstName: row.firstName,
        kind: lead.kind,
        firstName: lead.firstName,
        lastName: lead.lastName,
        email: lead.email,
        phone: lead.phone,
        message: lead.message,
        createdAt: lead.createdAt.toISOString(),
      });
    });
    this.relay.kick();
    return { id };
  }

  async leads(accountId: string): Promise<{ leads: Lead[] }> {
    await this.own(accountId);
    return { leads: (await this.profiles.leadsOf(this.db, accountId)).map(toLead) };
  }

  /** Everything this service holds about the owner (POPIA: the right of access). */
  async exportData(accountId: string): Promise<Record<string, unknown>> {
    const row = await this.own(accountId);
    return {
      profile: toOwn(row),
      createdAt: row.createdAt.toISOString(),
      leads: (await this.profiles.leadsOf(this.db, accountId)).map(toLead),
      images: await this.profiles.mediaOf(this.db, accountId),
      views: await this.profiles.viewCounts(this.db, accountId),
    };
  }
}

