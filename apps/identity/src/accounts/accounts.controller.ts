import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Rpc, type SessionUser } from '@digicard/contracts';
import { parseRpc } from '@digicard/server';
import { AccountsService, type IssuedToken } from './accounts.service.js';

@Controller()
export class AccountsController {
  constructor(@Inject(AccountsService) private readonly accounts: AccountsService) {}

  @MessagePattern(Rpc.register.subject)
  register(@Payload() payload: unknown): Promise<SessionUser> {
    return this.accounts.register(parseRpc(Rpc.register, payload).body);
  }

  @MessagePattern(Rpc.authenticate.subject)
  authenticate(@Payload() payload: unknown): Promise<SessionUser> {
    return this.accounts.authenticate(parseRpc(Rpc.authenticate, payload).body);
  }

  @MessagePattern(Rpc.getAccount.subject)
  get(@Payload() payload: unknown): Promise<SessionUser> {
    return this.accounts.get(parseRpc(Rpc.getAccount, payload).body.accountId);
  }

  @MessagePattern(Rpc.verifyEmail.subject)
  verifyEmail(@Payload() payload: unknown): Promise<SessionUser> {
    return this.accounts.verifyEmail(parseRpc(Rpc.verifyEmail, payload).body.token);
  }

  @MessagePattern(Rpc.requestVerification.subject)
  requestVerification(@Payload() payload: unknown): Promise<{ requested: boolean }> {
    return this.accounts.requestVerification(parseRpc(Rpc.requestVerification, payload).body.accountId);
  }

  @MessagePattern(Rpc.issueVerificationToken.subject)
  issueVerificationToken(@Payload() payload: unknown): Promise<IssuedToken | null> {
    return this.accounts.issueToken(parseRpc(Rpc.issueVerificationToken, payload).body.accountId, 'verify-email');
  }

  @MessagePattern(Rpc.requestPasswordReset.subject)
  requestPasswordReset(@Payload() payload: unknown): Promise<{ requested: boolean }> {
    return this.accounts.requestPasswordReset(parseRpc(Rpc.requestPasswordReset, payload).body.email);
  }

  @MessagePattern(Rpc.issuePasswordResetToken.subject)
  issuePasswordResetToken(@Payload() payload: unknown): Promise<IssuedToken | null> {
    return this.accounts.issueToken(parseRpc(Rpc.issuePasswordResetToken, payload).body.accountId, 'reset-password');
  }

  @MessagePattern(Rpc.deleteAccount.subject)
  delete(@Payload() payload: unknown): Promise<{ deleted: true }> {
    const { accountId, password } = parseRpc(Rpc.deleteAccount, payload).body;
    return this.accounts.delete(accountId, password);
  }

  @MessagePattern(Rpc.resetPassword.subject)
  resetPassword(@Payload() payload: unknown): Promise<SessionUser> {
    return this.accounts.resetPassword(parseRpc(Rpc.resetPassword, payload).body);
  }
}
