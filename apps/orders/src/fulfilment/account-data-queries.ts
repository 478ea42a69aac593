import { Inject, Injectable } from '@nestjs/common';
import { Rpc, type ExportChunk, type PageRequest, type RequestMeta } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, exportChunk, toPage, type ExportList, type RpcClient, RPC_CLIENT } from '@digicard/server';
import { EnquiriesRepository } from '../enquiries/enquiries.repository.js';
import { FulfilmentQueries } from './fulfilment-queries.js';
import { CustomersRepository } from './customers.repository.js';

/**
 * Everything orders holds about the signed-in account (POPIA's right of access), in chunks: the name kept for packing
 * slips, then its orders (lines, history, cards, proofs' state; newest first) and the sales enquiries sent under its
 * email (oldest first), each a page at a time. The email is the one identity says the account proved (`provedEmail`:
 * a link sent to it was followed), never taken from the request: a caller cannot name somebody else's address, and an
 * address nobody proved (registered unverified, or typed by a team leader for a rep) is nobody's yet.
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

  async export(meta: RequestMeta & { userId: string }, request: PageRequest): Promise<ExportChunk> {
    const orders: ExportList = {
      name: 'orders',
      read: (start, limit, part) => this.queries.ownDetailsPage(meta.userId, start, limit, part),
    };
    const enquiries: ExportList = {
      name: 'enquiries',
      read: async (start, limit, part) => {
        // Only an address the account proved is its own: registering someone else's address unverified, or a leader
        // typing it for a rep, must not hand over the enquiries sent under it. Asked again for every page.
        const { email } = await this.rpc.call(Rpc.provedEmail, { accountId: meta.userId }, meta);
        if (!email) return { items: [], nextCursor: null };
        const rows = await this.enquiries.pageByEmail(this.db, email, start, limit);
        return toPage(
          rows,
          limit,
          (page) =>
            page.map((e) => ({
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
          part,
        );
      },
    };
    return exportChunk(request, async () => {
      const [customer] = await this.customers.customersOf(this.db, [meta.userId]);
      return {
        customer: customer ? { username: customer.username, name: customer.name, updatedAt: customer.updatedAt.toISOString() } : null,
      };
    }, [orders, enquiries]);
  }
}
