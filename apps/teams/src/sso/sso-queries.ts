import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import {
  SsoMessages,
  type SsoAccountStateSchema,
  type SsoProviderQuerySchema,
  type SsoProviderSchema,
  type StoredSsoSettingsSchema,
} from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError, type SignedInMeta } from '@digicard/server';
import { LeaderTier } from '../team/leader-tier.js';
import { MembersRepository } from '../team/members.repository.js';
import { toProvider, toStoredSettings } from './sso.mapping.js';
import { SsoRepository } from './sso.repository.js';

/** What teams answers about company sign-in without changing anything. */
@Injectable()
export class SsoQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(SsoRepository) private readonly sso: SsoRepository,
    @Inject(MembersRepository) private readonly members: MembersRepository,
    @Inject(LeaderTier) private readonly tier: LeaderTier,
  ) {}

  /** The signed-in leader's own settings (DigiPlatinum, as every Teams subject). */
  async settings(meta: SignedInMeta): Promise<z.infer<typeof StoredSsoSettingsSchema>> {
    await this.tier.assertPlatinum(meta);
    return toStoredSettings(await this.sso.ofLeader(this.db, meta.userId));
  }

  /** The provider for an email's domain, or of a team link; 404 when there is none. */
  async provider(query: z.infer<typeof SsoProviderQuerySchema>): Promise<z.infer<typeof SsoProviderSchema>> {
    let row = null;
    if ('teamId' in query) row = await this.sso.byTeamId(this.db, query.teamId);
    else {
      const domain = query.email
        .slice(query.email.lastIndexOf('@') + 1)
        .trim()
        .toLowerCase();
      if (domain) row = await this.sso.byDomain(this.db, domain);
    }
    if (!row) throw ServiceError.notFound(SsoMessages.noProvider);
    return toProvider(row);
  }

  /**
   * The team whose provider may sign this account in: a current rep's team (password refused when it requires SSO),
   * or the leader's own team (a leader keeps their password, so a team can never lock its leader out).
   */
  async accountState(accountId: string): Promise<z.infer<typeof SsoAccountStateSchema>> {
    const member = await this.members.asMember(this.db, accountId);
    if (member && member.removedAt === null) {
      const team = await this.sso.ofLeader(this.db, member.leaderAccountId);
      return { teamId: team?.teamId ?? null, passwordRefused: team?.required ?? false };
    }
    const own = await this.sso.ofLeader(this.db, accountId);
    return { teamId: own?.teamId ?? null, passwordRefused: false };
  }
}
