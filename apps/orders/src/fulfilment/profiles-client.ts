import { Inject, Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { Rpc, type OwnProfile, type RequestMeta } from '@digicard/contracts';
import { RpcCallError, type RpcClient, RPC_CLIENT } from '@digicard/server';

/** Services ask as no one: the account acted on is named in each request's body. */
const meta = (requestId: string): RequestMeta => ({ requestId, userId: null, role: null, ip: null });

export interface CardProfile {
  username: string;
  name: string;
  title: string;
  businessName: string;
  logo: { png: Buffer; width: number; height: number } | null;
}

/** The largest logo the proof embeds, in pixels (30 mm at about 500 dpi): enough for print, small in the PDF. */
const LOGO_MAX_PX = 600;

/**
 * What goes on a buyer's card, asked of profiles over NATS through its service-only query (`profileOfAccount`: the
 * account named in the body, only services' NATS users may ask it). Its document is the one the public page shows: a team member's (a profile with a business, spec's
 * businessId) carries the business name and logo of the business it inherits from (libs/domain `withBusiness`), never
 * the rep's own. The logo comes through the service-only `mediaOfAccount`, naming the account that owns it (the
 * business for a team member, `managedBy`; the buyer otherwise): a card is printed from a profile whether or not it is
 * public or verified yet. It is turned into PNG (pdfkit embeds PNG and JPEG, not WebP).
 */
@Injectable()
export class ProfilesClient {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  /** Null when the account has no profile any more (deleted). */
  async profileOf(accountId: string, requestId: string): Promise<OwnProfile | null> {
    try {
      return await this.rpc.call(Rpc.profileOfAccount, { accountId }, meta(requestId));
    } catch (error) {
      if (error instanceof RpcCallError && error.apiError?.statusCode === 404) return null;
      throw error;
    }
  }

  async cardProfile(accountId: string, requestId: string): Promise<CardProfile | null> {
    const profile = await this.profileOf(accountId, requestId);
    if (!profile) return null;
    const id = /^\/media\/([A-Za-z0-9_-]+)\./.exec(profile.document.businessLogo)?.[1];
    let logo: CardProfile['logo'] = null;
    if (id) {
      const logoOwner = profile.managedBy?.accountId ?? accountId;
      const media = await this.rpc.call(Rpc.mediaOfAccount, { id, accountId: logoOwner }, meta(requestId));
      const { data, info } = await sharp(Buffer.from(media.dataBase64, 'base64'))
        .resize(LOGO_MAX_PX, LOGO_MAX_PX, { fit: 'inside', withoutEnlargement: true })
        .png()
        .toBuffer({ resolveWithObject: true });
      logo = { png: data, width: info.width, height: info.height };
    }
    return {
      username: profile.username,
      name: `${profile.firstName} ${profile.lastName}`.trim(),
      title: profile.document.title,
      businessName: profile.document.businessName,
      logo,
    };
  }
}
