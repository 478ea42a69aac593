import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { Rpc, type PublicProfile, type RequestMeta } from '@digicard/contracts';
import { CONFIG } from '@digicard/server';
import type { Config } from '../config.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { googleWalletLogoPng } from '../wallet/google-wallet-logo.js';
import { RenderedImages } from './rendered-images.js';
import { buildVcard, vcardFileName } from './vcard.js';

/** A vCard's photo: phones' address books read JPEG; a small one keeps the card light. */
const vcardPhoto = (image: Buffer) => sharp(image).resize(300, 300, { fit: 'cover' }).jpeg({ quality: 80 }).toBuffer();

/** What visitors of a profile take away: its contact card, its QR code, and the uploaded images. */
@Injectable()
export class VisitorDownloads {
  private readonly rendered = new RenderedImages();

  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  private async profile(username: string, meta: RequestMeta): Promise<PublicProfile> {
    const { profile } = await this.rpc.call(Rpc.getPublicProfile, { username, source: null }, meta);
    return profile;
  }

  private profileUrl(username: string, source?: 'qr' | 'nfc'): string {
    return `${this.config.PUBLIC_URL}/${username}${source ? `?src=${source}` : ''}`;
  }

  async vcard(username: string, meta: RequestMeta, res: Response): Promise<void> {
    const profile = await this.profile(username, meta);
    let photo: Buffer | null = null;
    const id = /^\/media\/([A-Za-z0-9_-]+)\./.exec(profile.document.profileImage)?.[1];
    if (id) photo = (await this.rendered.get(`vcard:${id}`, () => this.loadMedia(id, meta), vcardPhoto)).image;
    const fileName = vcardFileName(profile);
    res
      .status(200)
      .type('text/vcard; charset=utf-8')
      .set('Content-Disposition', `attachment; filename="${fileName.replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      .set('Cache-Control', 'no-cache')
      .send(buildVcard({ profile, profileUrl: this.profileUrl(profile.username), photoJpeg: photo }));
  }

  async qrPng(username: string, meta: RequestMeta, res: Response): Promise<void> {
    const profile = await this.profile(username, meta);
    const png = await QRCode.toBuffer(this.profileUrl(profile.username, 'qr'), {
      type: 'png',
      width: 300,
      margin: 2,
      errorCorrectionLevel: 'M',
    });
    res
      .status(200)
      .type('image/png')
      .set('Content-Disposition', 'attachment; filename="QR_Code.png"')
      .set('Cache-Control', 'public, max-age=3600')
      .send(png);
  }

  async qrSvg(username: string, meta: RequestMeta, res: Response): Promise<void> {
    const profile = await this.profile(username, meta);
    const svg = await QRCode.toString(this.profileUrl(profile.username, 'qr'), { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
    res
      .status(200)
      .type('image/svg+xml')
      .set('Content-Disposition', 'attachment; filename="QR_Code.svg"')
      .set('Cache-Control', 'public, max-age=3600')
      .send(svg);
  }

  /**
   * An uploaded image, `<id>.<extension>`. Of a public profile: ids never change meaning, so it is cached for a
   * year. Of a private or unverified profile: its owner only, never stored by a cache (the profiles service answers
   * 404 to anyone else, and for a deleted account's images, which are gone).
   */
  async media(file: string, meta: RequestMeta, res: Response): Promise<void> {
    const media = await this.rpc.call(Rpc.getMedia, { id: file.slice(0, file.lastIndexOf('.')) }, meta);
    res
      .status(200)
      .type(media.contentType)
      .set('Cache-Control', media.shareable ? 'public, max-age=31536000, immutable' : 'private, no-store')
      .set('X-Content-Type-Options', 'nosniff')
      .send(Buffer.from(media.dataBase64, 'base64'));
  }

  /** An uploaded image as a Google Wallet pass's logo (`google-wallet-logo.ts`), shown and cached as the image is. */
  async walletLogo(file: string, meta: RequestMeta, res: Response): Promise<void> {
    const id = file.slice(0, file.lastIndexOf('.'));
    const { image, shareable } = await this.rendered.get(`wallet-logo:${id}`, () => this.loadMedia(id, meta), googleWalletLogoPng);
    res
      .status(200)
      .type('image/png')
      .set('Cache-Control', shareable ? 'public, max-age=31536000, immutable' : 'private, no-store')
      .set('X-Content-Type-Options', 'nosniff')
      .send(image);
  }

  private async loadMedia(id: string, meta: RequestMeta): Promise<{ data: Buffer; shareable: boolean }> {
    const media = await this.rpc.call(Rpc.getMedia, { id }, meta);
    return { data: Buffer.from(media.dataBase64, 'base64'), shareable: media.shareable };
  }
}
