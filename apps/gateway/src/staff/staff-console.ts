import { Inject, Injectable } from '@nestjs/common';
import {
  Rpc,
  type PageRequest,
  type RequestMeta,
  type StaffAccountDetail,
  type StaffAuditPage,
  type StaffSearchResult,
} from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import { LOGGER } from '@digicard/server';
import { RedisUnavailableError } from '../redis/redis-call.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { SessionStore } from '../session/session.store.js';
import { mergeAuditPages } from './merged-audit.js';

/**
 * The staff console's calls: identity owns the account and its role, profiles the partner flag, vanity paths and
 * business link. Each service checks the staff role again and audits its own changes; the console shows both audits
 * as one list, newest first, a page at a time.
 */
@Injectable()
export class StaffConsole {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(SessionStore) private readonly sessions: SessionStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  search(query: string, page: PageRequest, meta: RequestMeta): Promise<StaffSearchResult> {
    return this.rpc.call(Rpc.staffFindAccounts, { query, ...page }, meta);
  }

  async detail(accountId: string, meta: RequestMeta): Promise<StaffAccountDetail> {
    const [identity, profile] = await Promise.all([
      this.rpc.call(Rpc.staffGetAccount, { accountId }, meta),
      this.rpc.call(Rpc.staffGetProfile, { accountId }, meta),
    ]);
    return { account: identity.account, profile };
  }

  /** A page of the account's audited changes, identity's and profiles' as one list, newest first. */
  async audit(accountId: string, page: PageRequest, meta: RequestMeta): Promise<StaffAuditPage> {
    const request = { accountId, ...page };
    const pages = await Promise.all([
      this.rpc.call(Rpc.staffAccountAudit, request, meta),
      this.rpc.call(Rpc.staffProfileAudit, request, meta),
    ]);
    return mergeAuditPages(pages, page.limit);
  }

  async setRole(accountId: string, role: 'user' | 'teamLeader', meta: RequestMeta): Promise<StaffAccountDetail> {
    await this.rpc.call(Rpc.staffSetRole, { accountId, role }, meta);
    return this.detail(accountId, meta);
  }

  async revokeRole(accountId: string, role: 'print' | 'staff', meta: RequestMeta): Promise<StaffAccountDetail> {
    await this.rpc.call(Rpc.staffRevokeRole, { accountId, role }, meta);
    // Signed out everywhere at once (issue 28, item 7); a sign-in after this gets the role identity now holds. The role
    // is taken already: should Redis fail here, the answer is still the revoked account, and the role change's event
    // (with `signOut`, handled by the role sync until Redis is back) ends the sessions signed in before it.
    try {
      await this.sessions.destroyAllFor(accountId);
    } catch (error) {
      if (!(error instanceof RedisUnavailableError)) throw error;
      this.logger.warn({ accountId, err: error.cause }, 'sessions not ended at once (Redis unavailable): the role sync will end them');
    }
    return this.detail(accountId, meta);
  }

  async setPartner(accountId: string, isPartner: boolean, meta: RequestMeta): Promise<StaffAccountDetail> {
    await this.rpc.call(Rpc.staffSetPartner, { accountId, isPartner }, meta);
    return this.detail(accountId, meta);
  }

  async setVanityPaths(accountId: string, paths: string[], meta: RequestMeta): Promise<StaffAccountDetail> {
    await this.rpc.call(Rpc.staffSetVanityPaths, { accountId, paths }, meta);
    return this.detail(accountId, meta);
  }

  async setBusiness(accountId: string, businessUsername: string | null, meta: RequestMeta): Promise<StaffAccountDetail> {
    await this.rpc.call(Rpc.staffSetBusiness, { accountId, businessUsername }, meta);
    return this.detail(accountId, meta);
  }
}
