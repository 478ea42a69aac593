import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, TeamMessages, UpgradeMessages, type ImagePurpose, type StoredImage } from '@digicard/contracts';
import { can } from '@digicard/domain';
import { CONFIG, ServiceError } from '@digicard/server';
import type { Config } from '../../config.js';
import { MediaKeeper } from '../media-keeper.js';
import { documentOf, membershipOf } from '../profile.mapping.js';
import { ProfileWriter } from '../profile-writer.js';
import { ProfilesRepository } from '../profiles.repository.js';
import { MediaRepository } from '../media.repository.js';

export interface ImageUpload {
  purpose: ImagePurpose;
  contentType: 'image/webp' | 'image/png' | 'image/jpeg';
  data: Buffer;
  width: number;
  height: number;
}

const quotaExceeded = (quota: number) =>
  new ServiceError({
    statusCode: 413,
    code: ErrorCode.QuotaExceeded,
    message: `Your images already use the ${Math.round(quota / 1_000_000)} MB of storage your account has. Remove some images from your profile, save it, and try again.`,
  });

/** Stores an uploaded image; the profile image, cover and logo take it at once (the spec's immediate write). */
@Injectable()
export class StoreImage {
  constructor(
    @Inject(ProfileWriter) private readonly writer: ProfileWriter,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(MediaRepository) private readonly images: MediaRepository,
    @Inject(MediaKeeper) private readonly media: MediaKeeper,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async execute(accountId: string, { purpose, contentType, data, width, height }: ImageUpload): Promise<StoredImage> {
    const current = await this.writer.own(accountId);
    // A rep's cover, logo, gallery and products are their leader's (spec: businessId).
    if (current.businessAccountId && purpose !== 'profileImage') throw ServiceError.forbidden(TeamMessages.businessLocked);
    if (purpose === 'gallery' && !can(membershipOf(current), 'gallery')) throw ServiceError.forbidden(UpgradeMessages.gallery);
    if (purpose === 'product' && !can(membershipOf(current), 'products')) throw ServiceError.forbidden(UpgradeMessages.products);
    const id = randomBytes(16).toString('base64url');
    const url = `/media/${id}.${contentType.split('/')[1] ?? 'webp'}`;
    const immediate = purpose === 'profileImage' || purpose === 'profileBackground' || purpose === 'businessLogo';
    await this.writer.change(accountId, async (tx) => {
      // The profile row is locked first, so parallel uploads of one account are counted against the quota (and
      // change the document) one after another.
      const locked = await this.profiles.lockProfile(tx, accountId);
      await this.images.insertMedia(tx, { id, accountId, purpose, contentType, bytes: data, width, height });
      const before = documentOf(locked ?? current);
      const document = { ...before, ...(immediate ? { [purpose]: url } : {}) };
      const saved = await this.profiles.update(tx, accountId, { document });
      // A new profile image, cover or logo replaces the old one, which is deleted with this change.
      if (saved) await this.media.dropOrphans(tx, accountId, before, document);
      // The quota counts what the account keeps after this change: the image a new one replaces is not counted, so
      // an owner at the limit can still change their photo. Over it, the whole change is rolled back.
      if ((await this.images.mediaBytesOf(tx, accountId)) > this.config.MEDIA_QUOTA_BYTES)
        throw quotaExceeded(this.config.MEDIA_QUOTA_BYTES);
      return saved;
    });
    return { url };
  }
}
