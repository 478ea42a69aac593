import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, type OwnProfile, type ProfileDocument } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { InheritedFields, lockedContent, mediaIdsOf, upgradeMessage } from '@digicard/domain';
import { DATABASE, ServiceError } from '@digicard/server';
import { MediaKeeper } from '../media-keeper.js';
import { documentOf, effectiveMembership, toOwn } from '../profile.mapping.js';
import { ProfileWriter } from '../profile-writer.js';
import { ProfilesRepository } from '../profiles.repository.js';
import { MediaRepository } from '../media.repository.js';

/**
 * The editor's Save: the whole document, refused (not silently trimmed) when it uses what the tier lacks. A team
 * rep saves their personal fields only: the business fields they send are ignored (their leader owns them; the
 * editor shows them locked), so a rep can never change what their team's pages show.
 */
@Injectable()
export class SaveProfile {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(ProfileWriter) private readonly writer: ProfileWriter,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(MediaRepository) private readonly images: MediaRepository,
    @Inject(MediaKeeper) private readonly media: MediaKeeper,
  ) {}

  async execute(accountId: string, sent: ProfileDocument): Promise<OwnProfile> {
    const current = await this.writer.own(accountId);
    const business = await this.writer.businessOf(current);
    const document = business ? personalOnly(sent, documentOf(current)) : sent;
    const [locked] = lockedContent(document, effectiveMembership(current, business));
    if (locked) throw ServiceError.forbidden(upgradeMessage(locked));
    await this.assertOwnMedia(accountId, document);
    return toOwn(
      await this.writer.change(accountId, async (tx) => {
        const saved = await this.profiles.update(tx, accountId, { document });
        // The images the document no longer shows are deleted with the save (not left served forever).
        if (saved) await this.media.dropOrphans(tx, accountId, documentOf(current), document);
        return saved;
      }),
      business,
    );
  }

  /** Image addresses in a document must be this owner's uploads: nobody shows another owner's pictures. */
  private async assertOwnMedia(accountId: string, document: ProfileDocument): Promise<void> {
    for (const id of mediaIdsOf(document)) {
      const row = await this.images.mediaById(this.db, id);
      if (!row || row.accountId !== accountId) {
        throw new ServiceError({
          statusCode: 400,
          code: ErrorCode.ValidationFailed,
          message: 'An image in the profile is not one of your uploads. Please upload it again.',
        });
      }
    }
  }
}

/** What a rep may change: everything but the business fields, which keep what was stored. */
export function personalOnly(sent: ProfileDocument, stored: ProfileDocument): ProfileDocument {
  return { ...sent, ...Object.fromEntries(InheritedFields.map((field) => [field, stored[field]])) };
}
