import { Body, Controller, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import QRCode from 'qrcode';
import sharp from 'sharp';
import {
  ErrorCode,
  HttpRoutes,
  LeadSubmissionSchema,
  LeadThanks,
  Rpc,
  type LeadSubmission,
  type PublicProfile,
  type RequestMeta,
} from '@digicard/contracts';
import { ApiHttpException, CONFIG } from '@digicard/server';
import type { Config } from '../config.js';
import { Meta } from '../http/request-meta.js';
import { ZodBody } from '../http/zod-body.pipe.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { RateLimiter } from '../security/rate-limiter.js';
import { buildVcard, vcardFileName } from './vcard.js';

const USERNAME = /^[a-z0-9-]{1,64}$/;
const notFound = () => new ApiHttpException({ statusCode: 404, code: ErrorCode.NotFound, message: 'Profile not found.' });

/** What visitors of a profile use: its forms, its contact card, its QR code, and the images. */
@Controller()
export class PublicProfileController {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  private async profile(username: string, meta: RequestMeta): Promise<PublicProfile> {
    if (!USERNAME.test(username)) throw notFound();
    const { profile } = await this.rpc.call(Rpc.getPublicProfile, { username, source: null }, meta);
    return profile;
  }

  profileUrl(username: string, source?: 'qr' | 'nfc'): string {
    return `${this.config.PUBLIC_URL}/${username}${source ? `?src=${source}` : ''}`;
  }

  @Post(HttpRoutes.submitLead.path)
  @HttpCode(202)
  async submitLead(
    @Param('username') username: string,
    @Body(new ZodBody(LeadSubmissionSchema)) submission: LeadSubmission,
    @Meta() meta: RequestMeta,
  ): Promise<{ message: string }> {
    if (!USERNAME.test(username)) throw notFound();
    await this.limiter.hit('lead-ip', meta.ip ?? 'unknown', this.config.ENQUIRY_RATE_LIMIT);
    await this.rpc.call(Rpc.submitLead, { username, submission }, meta);
    return { message: LeadThanks[submission.kind] };
  }

  @Get(HttpRoutes.getVcard.path)
  async vcard(
    @Param('username') username: string,
    @Meta() meta: RequestMeta,
    @Res() res: Response,
  ): Promise<void> {
    const profile = await this.profile(username, meta);
    let photo: Buffer | null = null;
    const id = /^\/media\/([A-Za-z0-9_-]+)\./.exec(profile.document.profileImage)?.[1];
    if (id) {
      const media = await this.rpc.call(Rpc.getMedia, { id }, meta);
      // Phones' address books read JPEG; a small one keeps the card light.
      photo = await sharp(Buffer.from(media.dataBase64, 'base64')).resize(300, 300, { fit: 'cover' }).jpeg({ quality: 80 }).toBuffer();
    }
    const fileName = vcardFileName(profile);
    res
      .status(200)
      .type('text/vcard; charset=utf-8')
      .set('Content-Disposition', `attachment; filename="${fileName.replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      .set('Cache-Control', 'no-cache')
      .send(buildVcard({ profile, profileUrl: this.profileUrl(profile.username), photoJpeg: photo }));
  }

  @Get(HttpRoutes.getQrPng.path)
  async qrPng(@Param('username') username: string, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    const profile = await this.profile(username, meta);
    const png = await QRCode.toBuffer(this.profileUrl(profile.username, 'qr'), { type: 'png', width: 300, margin: 2, errorCorrectionLevel: 'M' });
    res.status(200).type('image/png').set('Content-Disposition', 'attachment; filename="QR_Code.png"').set('Cache-Control', 'public, max-age=3600').send(png);
  }

  @Get(HttpRoutes.getQrSvg.path)
  async qrSvg(@Param('username') username: string, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    const profile = await this.profile(username, meta);
    const svg = await QRCode.toString(this.profileUrl(profile.username, 'qr'), { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
    res.status(200).type('image/svg+xml').set('Content-Disposition', 'attachment; filename="QR_Code.svg"').set('Cache-Control', 'public, max-age=3600').send(svg);
  }

  /** Uploaded images: ids never change meaning, so they are cached for a year. */
  @Get('media/:file')
  async media(@Param('file') file: string, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    const match = /^([A-Za-z0-9_-]{10,64})\.(webp|png|jpeg)$/.exec(file);
    if (!match) throw new ApiHttpException({ statusCode: 404, code: ErrorCode.NotFound, message: 'No such image.' });
    const media = await this.rpc.call(Rpc.getMedia, { id: match[1]! }, meta);
    res
      .status(200)
      .type(media.contentType)
      .set('Cache-Control', 'public, max-age=31536000, immutable')
      .set('X-Content-Type-Options', 'nosniff')
      .send(Buffer.from(media.dataBase64, 'base64'));
  }
}
