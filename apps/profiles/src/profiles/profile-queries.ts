import { Inject, Injectable } from '@nestjs/common';
import { TeamMessages, type LeadList, type OwnProfile, type PageRequest, type ViewSource } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError, pageStart, toPage } from '@digicard/server';
import { can, mediaIdsOf, storedDocument, withBusiness } from '@digicard/domain';
import { documentOf, membershipOf, toLead, toOwn, toPublic } from './profile.mapping.js';
import { ProfileWriter, profileNotFound } from './profile-writer.js';
import { ProfilesRepository, type ProfileRow } from './profiles.repository.js';
import { AnalyticsRepository } from '../analytics/analytics.repository.js';
import { LeadsRepository } from './leads.repository.js';
import { MediaRepository } from './media.repository.js';

/** What the profiles service answers without changing anything (a page view is counted, nothing else). */
@Injectable()
export class ProfileQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(ProfileWriter) private readonly writer: ProfileWriter,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(AnalyticsRepository) private readonly analytics: AnalyticsRepository,
    @Inject(LeadsRepository) private readonly leadRows: LeadsRepository,
    @Inject(MediaRepository) private readonly images: MediaRepository,
  ) {}

  async own(accountId: string): Promise<OwnProfile> {
    const row = await this.writer.own(accountId);
    return toOwn(row, await this.writer.businessOf(row));
  }

  /** A page of the owner's leads, newest first. */
  async leads(accountId: string, request: PageRequest): Promise<LeadList> {
    await this.writer.own(accountId);
    const rows = await this.leadRows.leadsPage(this.db, accountId, pageStart(request), request.limit);
    const { items, nextCursor } = await toPage(rows, request.limit, (page) => page.map(toLead));
    return { leads: items, nextCursor };
  }

  /**
   * An uploaded image, as its owner's profile allows: to anyone while the profile is public and verified, or while
   * a public member page shows it as the business's (a leader's logo, cover, gallery or products on a rep's page,
   * even with the leader's own page private); to the owner only otherwise (private, unverified: `shareable: false`,
   * never cached); to nobody once the profile is gone.
   */
  async media(id: string, viewerId: string | null): Promise<{ contentType: string; dataBase64: string; shareable: boolean }> {
    const row = await this.images.mediaById(this.db, id);
    if (!row) throw ServiceError.notFound('No such image.');
    const owner = await this.profiles.byAccount(this.db, row.accountId);
    const shareable = !!owner && ((owner.isPublic && owner.isVerified && !owner.suspendedAt) || (await this.shownAsBusiness(owner, id)));
    if (!owner || (!shareable && viewerId !== row.accountId)) throw ServiceError.notFound('No such image.');
    return { contentType: row.contentType, dataBase64: row.bytes.toString('base64'), shareable };
  }

  /** Whether a public, verified member page shows this image of its business (only what members inherit). */
  private async shownAsBusiness(business: ProfileRow, mediaId: string): Promise<boolean> {
    const inherited = mediaIdsOf(withBusiness(storedDocument({}), documentOf(business)));
    if (!inherited.includes(mediaId)) return false;
    return (await this.profiles.membersOf(this.db, business.accountId)).some((m) => m.isPublic && m.isVerified && !m.suspendedAt);
  }

  /**
   * A profile as a visitor sees it. Private and unverified profiles are shown to their owner only (with
   * `shareable: false` so the page can say why); to anyone else they do not exist.
   */
  async publicProfile(username: string, viewerId: string | null, source: ViewSource | null) {
    const row = await this.profiles.byUsername(this.db, username.toLowerCase());
    if (!row) throw profileNotFound();
    const isOwner = viewerId === row.accountId;
    // A rep their company deactivated (SCIM) is not shown to anyone: they cannot sign in to be its owner either.
    if (row.suspendedAt) throw profileNotFound();
    const shareable = row.isPublic && row.isVerified;
    if (!shareable && !isOwner) throw profileNotFound();
    if (source && !isOwner) await this.analytics.recordView(this.db, row.accountId, source);
    const business = row.businessAccountId ? await this.profiles.byAccount(this.db, row.businessAccountId) : null;
    return { profile: toPublic(row, business), isOwner, shareable };
  }

  /** A page of a team leader's team leads: their current reps' and those of reps who left (kept with the team). */
  async teamLeads(leaderId: string, request: PageRequest): Promise<LeadList> {
    // Teams are DigiPlatinum's: a leader whose tier lapsed keeps the leads (nothing is deleted) until it is back.
    const leader = await this.profiles.byAccount(this.db, leaderId);
    if (!leader || !can(membershipOf(leader), 'teams')) throw ServiceError.forbidden(TeamMessages.needsPlatinum);
    const rows = await this.leadRows.teamLeadsPage(this.db, leaderId, pageStart(request), request.limit);
    const { items, nextCursor } = await toPage(rows, request.limit, (page) => page.map(toLead));
    return { leads: items, nextCursor };
  }

  /** A vanity path or an account id leads to the username. */
  async resolvePath(path: string): Promise<{ username: string }> {
    const accountId = /^[0-9a-f-]{36}$/.test(path) ? path : await this.profiles.vanityAccount(this.db, path);
    const row = accountId ? await this.profiles.byAccount(this.db, accountId) : null;
    if (!row) throw profileNotFound();
    return { username: row.username };
  }
}
