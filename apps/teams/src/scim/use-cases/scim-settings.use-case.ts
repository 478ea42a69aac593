import { Inject, Injectable } from '@nestjs/common';
import { ScimMessages, type PageRequest, type ScimAudit, type ScimTokenState, type TeamSignInState } from '@digicard/contracts';
import type { Logger } from '@digicard/config';
import type { Database } from '@digicard/db';
import { DATABASE, LOGGER, ServiceError, pageStart, toPage, type SignedInMeta } from '@digicard/server';
import { SsoRepository } from '../../sso/sso.repository.js';
import { LeaderTier } from '../../team/leader-tier.js';
import { toAuditEntry } from '../scim.mapping.js';
import { ScimRepository, type ScimTokenRow } from '../scim.repository.js';

const stateOf = (row: ScimTokenRow | null): ScimTokenState => ({
  configured: !!row,
  createdAt: row?.createdAt.toISOString() ?? null,
  lastUsedAt: row?.lastUsedAt?.toISOString() ?? null,
});

/**
 * The leader's SCIM settings in the Teams section (DigiPlatinum, as every Teams subject): the token (only its hash
 * arrives here; a new one replaces the old at once) and the audit list; and the staff console's view of a team's
 * company sign-in and SCIM, which staff can turn off.
 */
@Injectable()
export class ScimSettings {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(LeaderTier) private readonly tier: LeaderTier,
    @Inject(ScimRepository) private readonly scim: ScimRepository,
    @Inject(SsoRepository) private readonly sso: SsoRepository,
  ) {}

  async token(meta: SignedInMeta): Promise<ScimTokenState> {
    await this.tier.assertPlatinum(meta);
    return stateOf(await this.scim.tokenOf(this.db, meta.userId));
  }

  async storeToken(tokenHash: string, meta: SignedInMeta): Promise<ScimTokenState> {
    await this.tier.assertPlatinum(meta);
    const row = await this.scim.storeToken(this.db, meta.userId, tokenHash, new Date());
    this.logger.info({ leaderAccountId: meta.userId }, 'SCIM token made');
    return stateOf(row);
  }

  async revokeToken(meta: SignedInMeta): Promise<{ revoked: true }> {
    await this.tier.assertPlatinum(meta);
    if (!(await this.scim.removeToken(this.db, meta.userId))) throw ServiceError.notFound(ScimMessages.noTokenYet);
    this.logger.info({ leaderAccountId: meta.userId }, 'SCIM token revoked');
    return { revoked: true };
  }

  async audit(meta: SignedInMeta, request: PageRequest): Promise<ScimAudit> {
    await this.tier.assertPlatinum(meta);
    const rows = await this.scim.auditPage(this.db, meta.userId, pageStart(request), request.limit);
    const { items, nextCursor } = await toPage(rows, request.limit, (page) => page.map(toAuditEntry));
    return { entries: items, nextCursor };
  }

  /** Staff: a team's company sign-in and SCIM, by the leader's account. */
  async teamState(leaderId: string): Promise<TeamSignInState> {
    const [sso, token] = await Promise.all([this.sso.ofLeader(this.db, leaderId), this.scim.tokenOf(this.db, leaderId)]);
    return {
      sso: { configured: !!sso, required: sso?.required ?? false, issuer: sso?.issuer ?? null },
      scim: stateOf(token),
    };
  }

  /** Staff turn a team's company sign-in and/or SCIM off: the settings or the token go (logged with who did it). */
  async turnOff(leaderId: string, off: { sso: boolean; scim: boolean }, meta: SignedInMeta): Promise<TeamSignInState> {
    if (off.sso) await this.sso.remove(this.db, leaderId);
    if (off.scim) await this.scim.removeToken(this.db, leaderId);
    this.logger.warn({ staffAccountId: meta.userId, leaderAccountId: leaderId, ...off }, 'staff turned team sign-in off');
    return this.teamState(leaderId);
  }
}
