import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '@digicard/db';
import { DATABASE } from '@digicard/server';
import { Clock } from '../clock.js';
import { ItnProcessor } from '../workers/itn.processor.js';
import { ItnsRepository } from '../itns.repository.js';

/**
 * PayFast's notification: kept raw at once (so it survives a crash and is audited), answered, and decided after the
 * reply by the ITN processor (which also picks up undecided ones on start and on a timer).
 */
@Injectable()
export class ReceiveItn {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(ItnsRepository) private readonly itns: ItnsRepository,
    @Inject(ItnProcessor) private readonly processor: ItnProcessor,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute(rawBody: string, sourceIp: string | null): Promise<{ received: true }> {
    const now = this.clock.now();
    await this.itns.insertItn(this.db, { id: randomUUID(), rawBody, sourceIp, receivedAt: now, nextAttemptAt: now });
    setImmediate(() => this.processor.kick());
    return { received: true };
  }
}
