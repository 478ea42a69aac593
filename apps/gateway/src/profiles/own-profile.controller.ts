import { Body, Controller, Get, HttpCode, Inject, Param, Post, Put, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  ErrorCode,
  HttpRoutes,
  ImagePurposeSchema,
  ProfileSettingsSchema,
  Rpc,
  SaveProfileSchema,
  type Lead,
  type OwnProfile,
  type ProfileSettings,
  type RequestMeta,
  type SaveProfile,
  type StoredImage,
} from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import { CurrentSession, Meta } from '../http/request-meta.js';
import { ZodBody } from '../http/zod-body.pipe.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { requireAccount } from '../session/require-session.js';
import type { Session } from '../session/session.store.js';
import { processImage } from './images.js';

const csvCell = (value: string): string => {
  // A cell starting with = + - @ would run as a formula in a spreadsheet: quote it as text.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export function leadsCsv(leads: Lead[]): string {
  const header = ['Received', 'Form', 'First name', 'Last name', 'Email', 'Phone', 'Message'];
  const rows = leads.map((l) => [l.createdAt, l.kind, l.firstName, l.lastName, l.email, l.phone, l.message]);
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** The dashboard's API: always the signed-in owner's own profile; the account id comes from the session only. */
@Controller()
export class OwnProfileController {
  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {}

  @Get(HttpRoutes.getOwnProfile.path)
  get(@CurrentSession() session: Session | null, @Meta() meta: RequestMeta): Promise<OwnProfile> {
    requireAccount(session);
    return this.rpc.call(Rpc.getOwnProfile, {}, meta);
  }

  @Put(HttpRoutes.saveProfile.path)
  save(
    @CurrentSession() session: Session | null,
    @Body(new ZodBody(SaveProfileSchema)) body: SaveProfile,
    @Meta() meta: RequestMeta,
  ): Promise<OwnProfile> {
    requireAccount(session);
    return this.rpc.call(Rpc.saveProfile, { document: body.document }, meta);
  }

  @Put(HttpRoutes.saveProfileSettings.path)
  settings(
    @CurrentSession() session: Session | null,
    @Body(new ZodBody(ProfileSettingsSchema)) body: ProfileSettings,
    @Meta() meta: RequestMeta,
  ): Promise<OwnProfile> {
    requireAccount(session);
    return this.rpc.call(Rpc.saveSettings, body, meta);
  }

  @Post(HttpRoutes.uploadImage.path)
  @HttpCode(201)
  async upload(
    @CurrentSession() session: Session | null,
    @Param('purpose') purposeParam: string,
    @Req() req: Request,
    @Meta() meta: RequestMeta,
  ): Promise<StoredImage> {
    requireAccount(session);
    const purpose = ImagePurposeSchema.safeParse(purposeParam);
    if (!purpose.success) throw new ApiHttpException({ statusCode: 404, code: ErrorCode.NotFound, message: 'No such kind of image.' });
    const body: unknown = req.body;
    const image = await processImage(Buffer.isBuffer(body) ? body : Buffer.alloc(0), purpose.data);
    return this.rpc.call(
      Rpc.storeImage,
      { purpose: purpose.data, contentType: image.contentType, dataBase64: image.data.toString('base64'), width: image.width, height: image.height },
      meta,
    );
  }

  @Get(HttpRoutes.listLeads.path)
  leads(@CurrentSession() session: Session | null, @Meta() meta: RequestMeta): Promise<{ leads: Lead[] }> {
    requireAccount(session);
    return this.rpc.call(Rpc.listLeads, {}, meta);
  }

  @Get(HttpRoutes.exportLeads.path)
  async leadsCsv(@CurrentSession() session: Session | null, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    requireAccount(session);
    const { leads } = await this.rpc.call(Rpc.listLeads, {}, meta);
    res
      .status(200)
      .type('text/csv; charset=utf-8')
      .set('Content-Disposition', 'attachment; filename="leads.csv"')
      .set('Cache-Control', 'no-store')
      .send(leadsCsv(leads));
  }

  @Get(HttpRoutes.exportData.path)
  async export(@CurrentSession() session: Session | null, @Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    requireAccount(session);
    const [account, profile] = await Promise.all([
      this.rpc.call(Rpc.getAccount, {}, meta),
      this.rpc.call(Rpc.exportData, {}, meta),
    ]);
    res
      .status(200)
      .type('application/json')
      .set('Content-Disposition', 'attachment; filename="my-digicard-data.json"')
      .set('Cache-Control', 'no-store')
      .send(JSON.stringify({ exportedAt: new Date().toISOString(), account, ...profile }, null, 2));
  }
}
