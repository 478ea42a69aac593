import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, Rpc, type RequestMeta } from '@digicard/contracts';
import { RpcCallError, ServiceError, type RpcClient, type RpcBody, type SignedInMeta, RPC_CLIENT } from '@digicard/server';

const serviceMeta = (meta: RequestMeta): RequestMeta => ({ requestId: meta.requestId, userId: null, role: null, ip: null });

/**
 * What teams asks identity (which owns the accounts): identity's refusals (a wrong leader password, a taken
 * username) are passed on as they are; silence becomes 503, and nothing was stored here.
 */
@Injectable()
export class IdentityClient {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  /** As the leader (identity checks their password and their role itself). */
  createRepAccounts(body: RpcBody<typeof Rpc.createRepAccounts>, meta: SignedInMeta) {
    return this.ask(() => this.rpc.call(Rpc.createRepAccounts, body, meta));
  }

  /** A rep the team's identity provider sends (SCIM): no leader password, the token stood for the leader. */
  provisionRepAccounts(body: RpcBody<typeof Rpc.provisionRepAccounts>, meta: SignedInMeta) {
    return this.ask(() => this.rpc.call(Rpc.provisionRepAccounts, body, serviceMeta(meta)));
  }

  enableRepAccount(accountId: string, meta: SignedInMeta) {
    return this.ask(() => this.rpc.call(Rpc.enableRepAccount, { accountId }, serviceMeta(meta)));
  }

  /** Which of these rep accounts identity made (for additions cut short); as the service itself. */
  findRepAccounts(accountIds: string[]) {
    return this.ask(() =>
      this.rpc.call(Rpc.findRepAccounts, { accountIds }, { requestId: randomUUID(), userId: null, role: null, ip: null }),
    );
  }

  updateRepAccount(body: RpcBody<typeof Rpc.updateRepAccount>, meta: SignedInMeta) {
    return this.ask(() => this.rpc.call(Rpc.updateRepAccount, body, serviceMeta(meta)));
  }

  disableRepAccount(accountId: string, meta: SignedInMeta) {
    return this.ask(() => this.rpc.call(Rpc.disableRepAccount, { accountId }, serviceMeta(meta)));
  }

  private async ask<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof RpcCallError && error.apiError && error.apiError.statusCode < 500) {
        const { statusCode, code, message, fieldErrors } = error.apiError;
        throw new ServiceError({ statusCode, code, message, ...(fieldErrors ? { fieldErrors } : {}) });
      }
      if (error instanceof RpcCallError) {
        throw new ServiceError({
          statusCode: 503,
          code: ErrorCode.ServiceUnavailable,
          message: 'Accounts cannot be reached right now. Please try again.',
        });
      }
      throw error;
    }
  }
}
