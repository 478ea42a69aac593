import { Inject, Injectable } from '@nestjs/common';
import { Rpc, type RequestMeta } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, type RpcClient, RPC_CLIENT } from '@digicard/server';
import { EnquiriesRepository } from '../enquiries/enquiries.repository.js';
import { FulfilmentQueries } from './fulfilment-queries.js';
import { CustomersRepository } from './customers.repository.js';

/**
 * Everything orders holds about the signed-in account (POPIA's right of access): its orders (lines, history, cards,
 * proofs' state), the name kept for packing slips, and the sales enquiries sent under its email. The email is the
 * one identity says the account proved (`provedEmail`: a link sent to it was followed), never taken from the request:
 * a caller cannot name somebody else's address, and an address nobody proved (registered unverified, or typed by a
 * team leader for a rep) is nobody's yet.
 */
@Injectable()
export class OrdersAccountData {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(FulfilmentQueries) private readonly queries: FulfilmentQueries,
    @Inject(CustomersRepository) private readonly customers: CustomersRepository,
    @Inject(EnquiriesRepository) private readonly enquiries: EnquiriesRepository,
  ) {}

  async export(meta: RequestMeta & { userId: string }): Promise<Record<string, unknown>> {
    const { email } = await this.rpc.call(Rpc.provedEmail, { accountId: meta.userId }, meta);
    const [{ orders }, customers, enquiries] = await Promise.all([
      this.queries.ownDetails(meta.userId),
      this.customers.customersOf(this.db, [meta.userId]),
      // Only an address the account proved is its own: registering someone else's address unverified, or a leader
      // typing it for a rep, must not hand over the enquiries sent under it.
      email ? this.enquiries.byEmail(this.db, email) : Promise.resolve([]),
    ]);
    return {
      orders,
      customer: customers[0]
        ? { username: customers[0].username, name: customers[0].name, updatedAt: customers[0].updatedAt.toISOString() }
        : null,
      enquiries: enquiries.map((e) => ({
        id: e.id,
        kind: e.kind,
        name: e.name,
        email: e.email,
        phone: e.phone,
        message: e.message,
        company: e.company,
        teamSize: e.teamSize,
        createdAt: e.createdAt.toISOString(),
      })),
    };
  }
}
