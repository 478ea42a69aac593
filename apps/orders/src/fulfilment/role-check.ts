import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, Rpc, type RequestMeta, type Role } from '@digicard/contracts';
import { RpcCallError, ServiceError, type RpcClient, RPC_CLIENT } from '@digicard/server';

/**
 * The second check of a print or staff subject, against identity's records rather than the session: `meta.role`
 * (from the gateway's session, or from whoever could publish on the subject) got the call past `@Handles`; the
 * account must still hold the role in identity, so a role staff revoked ends its powers here at once, and a caller
 * that reached orders past the gateway with a made-up role is refused. Identity away: 503, never a pass.
 */
@Injectable()
export class RoleCheck {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  async assert(meta: RequestMeta & { userId: string }, role: Role): Promise<void> {
    let held: Role;
    try {
      held = (await this.rpc.call(Rpc.getAccount, {}, { ...meta, role: null })).role;
    } catch (error) {
      if (error instanceof RpcCallError && error.apiError && error.apiError.statusCode < 500) held = 'user';
      else if (error instanceof RpcCallError) {
        throw new ServiceError({
          statusCode: 503,
          code: ErrorCode.ServiceUnavailable,
          message: 'We could not reach our servers just now. Please try again in a minute.',
        });
      } else throw error;
    }
    if (held !== role) throw ServiceError.forbidden('You are not allowed to do that.');
  }
}
