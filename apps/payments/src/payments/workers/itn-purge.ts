import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from '@digicard/config';
import type { Database } from '@digicard/db';
import { CONFIG, DATABASE, LOGGER } from '@digicard/server';
import type { Config } from '../../config.js';
import { Clock } from '../clock.js';
import { ItnsRepository } from '../itns.repository.js';

/**
 * Forgets the ITNs that moved no money once they are `ITN_RETENTION_DAYS` old: whatever anyone posted from PayFast's
 * addresses is kept for that long to be looked into, then deleted. Applied ITNs stay with their payments.
 */
@Injectable()
export class ItnPurge {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(ItnsRepository) private readonly itns: ItnsRepository,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  /** Returns how many were deleted. */
  async run(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.config.ITN_RETENTION_DAYS * 86_400_000);
    const purged = await this.itns.purgeItns(this.db, before);
    if (purged > 0) this.logger.info({ purged, before }, 'old ITNs that moved no money deleted');
    return purged;
  }
}
