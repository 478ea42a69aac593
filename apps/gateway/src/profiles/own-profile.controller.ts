import { Controller, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  HttpRoutes,
  Rpc,
  type ImagePurpose,
  type LeadList,
  type OwnProfile,
  type PageRequest,
  type ProfileSettings,
  type RequestMeta,
  type SaveProfile,
  type StoredImage,
} from '@digicard/contracts';
import { Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { UploadedBytes, ValidBody, ValidQuery } from '../http/route-params.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { ImageUploads } from './images.js';
import { OwnerDownloads } from './owner-downloads.js';

/** The dashboard's API: always the signed-in owner's own profile; the services take the account from `meta` only. */
@Controller()
export class OwnProfileController {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(ImageUploads) private readonly images: ImageUploads,
    @Inject(OwnerDownloads) private readonly downloads: OwnerDownloads,
  ) {}

  @Route(HttpRoutes.getOwnProfile)
  get(@Meta() meta: RequestMeta): Promise<OwnProfile> {
    return this.rpc.call(Rpc.getOwnProfile, {}, meta);
  }

  @Route(HttpRoutes.saveProfile)
  save(@ValidBody() body: SaveProfile, @Meta() meta: RequestMeta): Promise<OwnProfile> {
    return this.rpc.call(Rpc.saveProfile, { document: body.document }, meta);
  }

  @Route(HttpRoutes.saveProfileSettings)
  settings(@ValidBody() body: ProfileSettings, @Meta() meta: RequestMeta): Promise<OwnProfile> {
    return this.rpc.call(Rpc.saveSettings, body, meta);
  }

  @Route(HttpRoutes.uploadImage)
  upload(@Param('purpose') purpose: ImagePurpose, @UploadedBytes() upload: Buffer, @Meta() meta: RequestMeta): Promise<StoredImage> {
    return this.images.store(purpose, upload, meta);
  }

  @Route(HttpRoutes.listLeads)
  leads(@ValidQuery() page: PageRequest, @Meta() meta: RequestMeta): Promise<LeadList> {
    return this.rpc.call(Rpc.listLeads, page, meta);
  }

  @Route(HttpRoutes.exportLeads)
  leadsCsv(@Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    return this.downloads.leads(meta, res);
  }

  @Route(HttpRoutes.exportData)
  export(@Meta() meta: RequestMeta, @Res() res: Response): Promise<void> {
    return this.downloads.everything(meta, res);
  }
}
