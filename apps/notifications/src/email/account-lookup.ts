import { Inject, Injectable } from '@nestjs/common';
import { Rpc, type RequestMeta } from '@digicard/contracts';
import { RpcCallError, type RpcClient, RPC_CLIENT } from '@digicard/server';

const meta = (eventId: string): RequestMeta => ({ requestId: `event-${eventId}`, userId: null, role: null, ip: null });

/**
 * An account's email and first name for the emails about it, asked of identity by id (`accountById`, service-only).
 */
@Injectable()
export class AccountLookup {
  constructor(@Inject(RPC_CLIENT) private readonly bus: RpcClient) {}

  /**
   * The buyer's email and first name, from identity's service-only `accountById` (the account named in the body; this
   * service never poses as the buyer in `meta.userId`). Null when the account is gone (deleted since it paid).
   */
  async accountOf(accountId: string, eventId: string) {
    try {
      return await this.bus.call(Rpc.accountById, { accountId }, meta(eventId));
    } catch (error) {
      if (error instanceof RpcCallError && error.apiError?.statusCode === 404) return null;
      throw error;
    }
  }
}
