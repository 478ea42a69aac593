import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { hasFeature, TeamMessages, UpgradeMessages, type ImagePurpose, type StoredImage } from '@digicard/contracts';
import { ServiceError } from '@digicard/server';
import { documentOf, membershipOf } from '../profile.mapping.js';
import { ProfileWriter } from '../profile-writer.js';
import { ProfilesRepository } from '../profiles.repository.js';

export interface ImageUpload {
  purpose: ImagePurpose;
  contentType: 'image/webp' | 'image/png' | 'image/jpeg';
  data: Buffer;
  width: number;
  height: number;
}

/** Stores an uploaded image; the profile image, cover and logo take it at once (the spec's immediate write). */
@Injectable()
export class StoreImage {
  constructor(
    @Inject(ProfileWriter) private readonly writer: ProfileWriter,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
  ) {}

  async execute(accountId: string, { purpose, contentType, data, width, height }: ImageUpload): Promise<StoredImage> {
    const current = await this.writer.own(accountId);
    // A rep's cover, logo, gallery and products are their leader's (spec: businessId).
    if (current.businessAccountId && purpose !== 'profileImage') throw ServiceError.forbidden(TeamMessages.businessLocked);
    if (purpose === 'gallery' && !hasFeature(membershipOf(current), 'gallery')) throw ServiceError.forbidden(UpgradeMessages.gallery);
    if (purpose === 'product' && !hasFeature(membershipOf(current), 'products')) throw ServiceError.forbidden(UpgradeMessages.products);
    const id = randomBytes(16).toString('base64url');
    const url = `/media/${id}.${contentType.split('/')[1] ?? 'webp'}`;
    const immediate = purpose === 'profileImage' || purpose === 'profileBackground' || purpose === 'businessLogo';
    await this.writer.change(accountId, async (tx) => {
      await this.profiles.insertMedia(tx, { id, accountId, purpose, contentType, bytes: data, width, height });
      const document = { ...documentOf(current), ...(immediate ? { [purpose]: url } : {}) };
      return this.profiles.update(tx, accountId, { document });
    });
    return { url };
  }
}
