import { Controller, Inject } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { Notices, Rpc, type Lead, type OwnProfile } from '@digicard/contracts';
import { parseRpc } from '@digicard/server';
import { ProfilesService } from './profiles.service.js';

@Controller()
export class ProfilesController {
  constructor(@Inject(ProfilesService) private readonly profiles: ProfilesService) {}

  @MessagePattern(Rpc.getOwnProfile.subject)
  get(@Payload() payload: unknown): Promise<OwnProfile> {
    return this.profiles.get(parseRpc(Rpc.getOwnProfile, payload).body.accountId);
  }

  @MessagePattern(Rpc.saveProfile.subject)
  save(@Payload() payload: unknown): Promise<OwnProfile> {
    const { accountId, document } = parseRpc(Rpc.saveProfile, payload).body;
    return this.profiles.save(accountId, document);
  }

  @MessagePattern(Rpc.saveSettings.subject)
  saveSettings(@Payload() payload: unknown): Promise<OwnProfile> {
    const { accountId, isPublic, membership } = parseRpc(Rpc.saveSettings, payload).body;
    return this.profiles.saveSettings(accountId, isPublic, membership);
  }

  @MessagePattern(Rpc.storeImage.subject)
  storeImage(@Payload() payload: unknown): Promise<{ url: string }> {
    const { accountId, purpose, contentType, dataBase64, width, height } = parseRpc(Rpc.storeImage, payload).body;
    return this.profiles.storeImage(accountId, purpose, contentType, Buffer.from(dataBase64, 'base64'), width, height);
  }

  @MessagePattern(Rpc.getMedia.subject)
  media(@Payload() payload: unknown): Promise<{ contentType: string; dataBase64: string }> {
    return this.profiles.media(parseRpc(Rpc.getMedia, payload).body.id);
  }

  @MessagePattern(Rpc.getPublicProfile.subject)
  publicProfile(@Payload() payload: unknown) {
    const { username, viewerId, source } = parseRpc(Rpc.getPublicProfile, payload).body;
    return this.profiles.publicProfile(username, viewerId, source);
  }

  /** A view of a page the gateway served from its cache. */
  @EventPattern(Notices.profileViewed.subject)
  async viewed(@Payload() payload: unknown): Promise<void> {
    const notice = Notices.profileViewed.data.safeParse(payload);
    if (notice.success) await this.profiles.recordViewOf(notice.data.username, notice.data.source, notice.data.count);
  }

  @MessagePattern(Rpc.resolvePath.subject)
  resolvePath(@Payload() payload: unknown): Promise<{ username: string }> {
    return this.profiles.resolvePath(parseRpc(Rpc.resolvePath, payload).body.path);
  }

  @MessagePattern(Rpc.submitLead.subject)
  submitLead(@Payload() payload: unknown): Promise<{ id: string }> {
    const { username, submission } = parseRpc(Rpc.submitLead, payload).body;
    return this.profiles.submitLead(username, submission);
  }

  @MessagePattern(Rpc.listLeads.subject)
  leads(@Payload() payload: unknown): Promise<{ leads: Lead[] }> {
    return this.profiles.leads(parseRpc(Rpc.listLeads, payload).body.accountId);
  }

  @MessagePattern(Rpc.exportData.subject)
  exportData(@Payload() payload: unknown): Promise<Record<string, unknown>> {
    return this.profiles.exportData(parseRpc(Rpc.exportData, payload).body.accountId);
  }
}
