import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from '@digicard/config';
import type { Database } from '@digicard/db';
import { CONFIG, DATABASE, IntervalTask, LOGGER } from '@digicard/server';
import type { Config } from '../../config.js';
import { ScimRepository } from '../scim.repository.js';

const DAY_MS = 86_400_000;

/**
 * Forgets SCIM calls once they are `SCIM_AUDIT_RETENTION_DAYS` old (every team's), on start and then every
 * `SCIM_AUDIT_PRUNE_MS`: an identity provider that syncs every 40 minutes writes thousands of calls a month.
 */
@Injectable()
export class ScimAuditPrune implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly task: IntervalTask;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(ScimRepository) private readonly scim: ScimRepository,
  ) {
    this.task = new IntervalTask('SCIM audit prune', config.SCIM_AUDIT_PRUNE_MS, () => this.run(), logger);
  }

  /** Deletes the calls older than the retention; returns how many. `now` is for tests. */
  async run(now: Date = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.config.SCIM_AUDIT_RETENTION_DAYS * DAY_MS);
    const pruned = await this.scim.pruneAudit(this.db, before);
    if (pruned > 0) this.logger.info({ pruned, before }, 'old SCIM calls deleted from the audit list');
    return pruned;
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }
}
