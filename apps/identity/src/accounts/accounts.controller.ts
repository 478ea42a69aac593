import { Controller, Inject } from '@nestjs/common';
import { Rpc, type SessionUser } from '@digicard/contracts';
import { Handles, type RpcBody as Body, type SignedInMeta } from '@digicard/server';
import { AccountsService } from './accounts.service.js';

@Controller()
export class AccountsController {
  constructor(@Inject(AccountsService) private readonly accounts: AccountsService) {}

  @Handles(Rpc.register)
  register(body: Body<typeof Rpc.register>): Promise<SessionUser> {
    return this.accounts.register(body);
  }

  @Handles(Rpc.authenticate)
  authenticate(body: Body<typeof Rpc.authenticate>): Promise<SessionUser> {
    return this.accounts.authenticate(body);
  }

  @Handles(Rpc.getAccount)
  get(_: object, meta: SignedInMeta): Promise<SessionUser> {
    return this.accounts.get(meta.userId);
  }

  @Handles(Rpc.verifyEmail)
  verifyEmail({ token }: Body<typeof Rpc.verifyEmail>): Promise<SessionUser> {
    return this.accounts.verifyEmail(token);
  }

  @Handles(Rpc.requestVerification)
  requestVerification(_: object, meta: SignedInMeta): Promise<{ requested: boolean }> {
    return this.accounts.requestVerification(meta.userId);
  }

  @Handles(Rpc.issueVerificationToken)
  issueVerificationToken({ accountId }: Body<typeof Rpc.issueVerificationToken>) {
    return this.accounts.issueToken(accountId, 'verify-email');
  }

  @Handles(Rpc.requestPasswordReset)
  requestPasswordReset({ email }: Body<typeof Rpc.requestPasswordReset>): Promise<{ requested: boolean }> {
    return this.accounts.requestPasswordReset(email);
  }

  @Handles(Rpc.issuePasswordResetToken)
  issuePasswordResetToken({ accountId }: Body<typeof Rpc.issuePasswordResetToken>) {
    return this.accounts.issueToken(accountId, 'reset-password');
  }

  @Handles(Rpc.deleteAccount)
  delete({ password }: Body<typeof Rpc.deleteAccount>, meta: SignedInMeta): Promise<{ deleted: true }> {
    return this.accounts.delete(meta.userId, password);
  }

  @Handles(Rpc.resetPassword)
  resetPassword(body: Body<typeof Rpc.resetPassword>): Promise<SessionUser> {
    return this.accounts.resetPassword(body);
  }
}
