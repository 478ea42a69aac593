import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Rpc, type Plan } from '@digicard/contracts';
import { GatewayRpc } from '../rpc/rpc.client.js';

const TTL_MS = 60_000;

/**
 * The membership plans the marketing pages are rendered with: as payments serves them (`payments.plan.list`), never
 * a price of the gateway's or the web app's own. Asked of payments at most once a minute.
 */
@Injectable()
export class ServedPlans {
  private plans: { list: readonly Plan[]; at: number } | null = null;

  constructor(@Inject(GatewayRpc) private readonly rpc: GatewayRpc) {}

  /** The plans, the same array until they are read again (a rendered page is kept while they are the same); null when payments does not answer. */
  async list(): Promise<readonly Plan[] | null> {
    if (this.plans && Date.now() - this.plans.at <= TTL_MS) return this.plans.list;
    try {
      const { plans } = await this.rpc.call(Rpc.listPlans, {}, { requestId: randomUUID(), userId: null, role: null, ip: null });
      this.plans = { list: plans, at: Date.now() };
      return plans;
    } catch {
      return null;
    }
  }
}
