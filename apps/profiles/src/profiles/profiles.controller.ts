import { Controller, Inject } from '@nestjs/common';
import { Rpc } from '@digicard/contracts';
import { Handles, type RpcBody, type SignedInMeta } from '@digicard/server';
import type { RequestMeta } from '@digicard/contracts';
import { ProfileQueries } from './profile-queries.js';
import { ChangeSettings } from './use-cases/change-settings.use-case.js';
import { ExportData } from './use-cases/export-data.use-case.js';
import { SaveProfile } from './use-cases/save-profile.use-case.js';
import { StoreImage } from './use-cases/store-image.use-case.js';
import { SubmitLead } from './use-cases/submit-lead.use-case.js';

/** The profiles service's subjects: each checked against its contract by @Handles, each one call. */
@Controller()
export class ProfilesController {
  constructor(
    @Inject(ProfileQueries) private readonly queries: ProfileQueries,
    @Inject(SaveProfile) private readonly saveProfile: SaveProfile,
    @Inject(ChangeSettings) private readonly changeSettings: ChangeSettings,
    @Inject(StoreImage) private readonly storeImage: StoreImage,
    @Inject(SubmitLead) private readonly submitLead: SubmitLead,
    @Inject(ExportData) private readonly exportData: ExportData,
  ) {}

  @Handles(Rpc.getOwnProfile)
  get(_: object, meta: SignedInMeta) {
    return this.queries.own(meta.userId);
  }

  /** Service-only (see the contract): another service asks about the account it acts for. */
  @Handles(Rpc.profileOfAccount)
  ofAccount({ accountId }: RpcBody<typeof Rpc.profileOfAccount>) {
    return this.queries.own(accountId);
  }

  @Handles(Rpc.saveProfile)
  save({ document }: RpcBody<typeof Rpc.saveProfile>, meta: SignedInMeta) {
    return this.saveProfile.execute(meta.userId, document);
  }

  @Handles(Rpc.saveSettings)
  settings(settings: RpcBody<typeof Rpc.saveSettings>, meta: SignedInMeta) {
    return this.changeSettings.execute(meta.userId, settings);
  }

  @Handles(Rpc.storeImage)
  image({ dataBase64, ...image }: RpcBody<typeof Rpc.storeImage>, meta: SignedInMeta) {
    return this.storeImage.execute(meta.userId, { ...image, data: Buffer.from(dataBase64, 'base64') });
  }

  @Handles(Rpc.getMedia)
  media({ id }: RpcBody<typeof Rpc.getMedia>, meta: RequestMeta) {
    return this.queries.media(id, meta.userId);
  }

  /** Service-only (see the contract): an image of the account named in the body, as its owner would see it. */
  @Handles(Rpc.mediaOfAccount)
  mediaOfAccount({ id, accountId }: RpcBody<typeof Rpc.mediaOfAccount>) {
    return this.queries.media(id, accountId);
  }

  @Handles(Rpc.getPublicProfile)
  publicProfile({ username, source }: RpcBody<typeof Rpc.getPublicProfile>, meta: RequestMeta) {
    return this.queries.publicProfile(username, meta.userId, source);
  }

  @Handles(Rpc.resolvePath)
  resolvePath({ path }: RpcBody<typeof Rpc.resolvePath>) {
    return this.queries.resolvePath(path);
  }

  @Handles(Rpc.submitLead)
  lead({ username, submission }: RpcBody<typeof Rpc.submitLead>) {
    return this.submitLead.execute(username, submission);
  }

  @Handles(Rpc.listLeads)
  leads(page: RpcBody<typeof Rpc.listLeads>, meta: SignedInMeta) {
    return this.queries.leads(meta.userId, page);
  }

  @Handles(Rpc.listTeamLeads)
  teamLeads(page: RpcBody<typeof Rpc.listTeamLeads>, meta: SignedInMeta) {
    return this.queries.teamLeads(meta.userId, page);
  }

  @Handles(Rpc.exportData)
  export(page: RpcBody<typeof Rpc.exportData>, meta: SignedInMeta) {
    return this.exportData.execute(meta.userId, page);
  }
}
