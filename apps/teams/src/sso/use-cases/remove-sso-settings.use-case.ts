import { Inject, Injectable } from '@nestjs/common';
import { SsoMessages } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError, type SignedInMeta } from '@digicard/server';
import { LeaderTier } from '../../team/leader-tier.js';
import { SsoRepository } from '../sso.repository.js';

/** A leader removes the team's company sign-in: its domains route nowhere, reps sign in with passwords again. */
@Injectable()
export class RemoveSsoSettings {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(SsoRepository) private readonly sso: SsoRepository,
    @Inject(LeaderTier) private readonly tier: LeaderTier,
  ) {}

  async execute(meta: SignedInMeta): Promise<{ removed: true }> {
    await this.tier.assertPlatinum(meta);
    if (!(await this.sso.remove(this.db, meta.userId))) throw ServiceError.notFound(SsoMessages.notSetUp);
    return { removed: true };
  }
}
