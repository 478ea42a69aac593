import { Controller, Inject } from '@nestjs/common';
import { Rpc, type RequestMeta } from '@digicard/contracts';
import { Handles, type RpcBody as Body, type SignedInMeta } from '@digicard/server';
import { AccountQueries } from './account-queries.js';
import { Authenticate } from './use-cases/authenticate.use-case.js';
import { SsoSignIn } from './use-cases/sso-sign-in.use-case.js';
import { CheckEmailLink } from './use-cases/check-email-link.use-case.js';
import { CreateRepAccounts } from './use-cases/create-rep-accounts.use-case.js';
import { DeleteAccount } from './use-cases/delete-account.use-case.js';
import { DisableRepAccount, EnableRepAccount } from './use-cases/disable-rep-account.use-case.js';
import { UpdateRepAccount } from './use-cases/update-rep-account.use-case.js';
import { IssueEmailToken } from './use-cases/issue-email-token.use-case.js';
import { RegisterAccount } from './use-cases/register-account.use-case.js';
import { RequestPasswordReset } from './use-cases/request-password-reset.use-case.js';
import { RequestVerification } from './use-cases/request-verification.use-case.js';
import { ResetPassword } from './use-cases/reset-password.use-case.js';
import { VerifyEmail } from './use-cases/verify-email.use-case.js';
import { RenameAccount } from './use-cases/rename-account.use-case.js';
import { RequestEmailChange } from './use-cases/request-email-change.use-case.js';
import { IssueEmailChangeToken } from './use-cases/issue-email-change-token.use-case.js';
import { ConfirmEmailChange } from './use-cases/confirm-email-change.use-case.js';

/** The identity service's subjects: each checked against its contract by @Handles, each one call. */
@Controller()
export class AccountsController {
  constructor(
    @Inject(AccountQueries) private readonly queries: AccountQueries,
    @Inject(RegisterAccount) private readonly registerAccount: RegisterAccount,
    @Inject(Authenticate) private readonly authenticateAccount: Authenticate,
    @Inject(SsoSignIn) private readonly ssoSignInAccount: SsoSignIn,
    @Inject(VerifyEmail) private readonly verifyEmailToken: VerifyEmail,
    @Inject(CheckEmailLink) private readonly checkLink: CheckEmailLink,
    @Inject(RequestVerification) private readonly requestVerificationEmail: RequestVerification,
    @Inject(IssueEmailToken) private readonly issueEmailToken: IssueEmailToken,
    @Inject(RequestPasswordReset) private readonly requestPasswordResetEmail: RequestPasswordReset,
    @Inject(ResetPassword) private readonly resetPasswordWithToken: ResetPassword,
    @Inject(DeleteAccount) private readonly deleteAccount: DeleteAccount,
    @Inject(CreateRepAccounts) private readonly createReps: CreateRepAccounts,
    @Inject(UpdateRepAccount) private readonly updateRep: UpdateRepAccount,
    @Inject(DisableRepAccount) private readonly disableRep: DisableRepAccount,
    @Inject(EnableRepAccount) private readonly enableRep: EnableRepAccount,
    @Inject(RenameAccount) private readonly rename: RenameAccount,
    @Inject(RequestEmailChange) private readonly requestChange: RequestEmailChange,
    @Inject(IssueEmailChangeToken) private readonly issueChangeToken: IssueEmailChangeToken,
    @Inject(ConfirmEmailChange) private readonly confirmChange: ConfirmEmailChange,
  ) {}

  @Handles(Rpc.renameAccount)
  renameAccount(body: Body<typeof Rpc.renameAccount>, meta: SignedInMeta) {
    return this.rename.execute(meta.userId, body);
  }

  @Handles(Rpc.requestEmailChange)
  requestEmailChange(body: Body<typeof Rpc.requestEmailChange>, meta: SignedInMeta) {
    return this.requestChange.execute(meta.userId, body);
  }

  @Handles(Rpc.issueEmailChangeToken)
  issueEmailChangeToken({ accountId, newEmail, tokenHash }: Body<typeof Rpc.issueEmailChangeToken>) {
    return this.issueChangeToken.execute(accountId, newEmail, tokenHash);
  }

  @Handles(Rpc.confirmEmailChange)
  confirmEmailChange({ token }: Body<typeof Rpc.confirmEmailChange>) {
    return this.confirmChange.execute(token);
  }

  @Handles(Rpc.exportAccountData)
  exportAccountData(page: Body<typeof Rpc.exportAccountData>, meta: SignedInMeta) {
    return this.queries.export(meta.userId, page);
  }

  @Handles(Rpc.createRepAccounts)
  createRepAccounts(body: Body<typeof Rpc.createRepAccounts>, meta: SignedInMeta) {
    return this.createReps.execute(meta.userId, body);
  }

  @Handles(Rpc.provisionRepAccounts)
  provisionRepAccounts(body: Body<typeof Rpc.provisionRepAccounts>) {
    return this.createReps.provision(body);
  }

  @Handles(Rpc.enableRepAccount)
  enableRepAccount({ accountId }: Body<typeof Rpc.enableRepAccount>) {
    return this.enableRep.execute(accountId);
  }

  @Handles(Rpc.findRepAccounts)
  findRepAccounts({ accountIds }: Body<typeof Rpc.findRepAccounts>) {
    return this.queries.repAccounts(accountIds);
  }

  @Handles(Rpc.updateRepAccount)
  updateRepAccount(body: Body<typeof Rpc.updateRepAccount>) {
    return this.updateRep.execute(body);
  }

  @Handles(Rpc.disableRepAccount)
  disableRepAccount({ accountId }: Body<typeof Rpc.disableRepAccount>) {
    return this.disableRep.execute(accountId);
  }

  @Handles(Rpc.register)
  register(body: Body<typeof Rpc.register>) {
    return this.registerAccount.execute(body);
  }

  @Handles(Rpc.authenticate)
  authenticate(body: Body<typeof Rpc.authenticate>) {
    return this.authenticateAccount.execute(body);
  }

  @Handles(Rpc.ssoSignIn)
  ssoSignIn({ email }: Body<typeof Rpc.ssoSignIn>) {
    return this.ssoSignInAccount.execute(email);
  }

  @Handles(Rpc.getAccount)
  get(_: object, meta: SignedInMeta) {
    return this.queries.get(meta.userId);
  }

  /** Service-only (see the contract): another service asks about the account it acts for. */
  @Handles(Rpc.accountById)
  byId({ accountId }: Body<typeof Rpc.accountById>) {
    return this.queries.get(accountId);
  }

  /** Service-only (see the contract): the address the account proved, for what other services keep by email. */
  @Handles(Rpc.provedEmail)
  provedEmail({ accountId }: Body<typeof Rpc.provedEmail>) {
    return this.queries.provedEmail(accountId);
  }

  /** Public: `meta.userId`, when the caller is signed in, must be the link's account (else 409, nothing spent). */
  @Handles(Rpc.verifyEmail)
  verifyEmail({ token }: Body<typeof Rpc.verifyEmail>, meta: RequestMeta) {
    return this.verifyEmailToken.execute(token, meta.userId);
  }

  @Handles(Rpc.checkEmailLink)
  checkEmailLink(body: Body<typeof Rpc.checkEmailLink>, meta: SignedInMeta) {
    return this.checkLink.execute(meta.userId, body);
  }

  @Handles(Rpc.requestVerification)
  requestVerification(_: object, meta: SignedInMeta) {
    return this.requestVerificationEmail.execute(meta.userId);
  }

  @Handles(Rpc.issueVerificationToken)
  issueVerificationToken({ accountId, tokenHash }: Body<typeof Rpc.issueVerificationToken>) {
    return this.issueEmailToken.execute(accountId, 'verify-email', tokenHash);
  }

  @Handles(Rpc.requestPasswordReset)
  requestPasswordReset({ email }: Body<typeof Rpc.requestPasswordReset>) {
    return this.requestPasswordResetEmail.execute(email);
  }

  @Handles(Rpc.issuePasswordResetToken)
  issuePasswordResetToken({ accountId, tokenHash }: Body<typeof Rpc.issuePasswordResetToken>) {
    return this.issueEmailToken.execute(accountId, 'reset-password', tokenHash);
  }

  @Handles(Rpc.issueWelcomeToken)
  issueWelcomeToken({ accountId, tokenHash }: Body<typeof Rpc.issueWelcomeToken>) {
    return this.issueEmailToken.execute(accountId, 'reset-password', tokenHash, true);
  }

  /** As verifyEmail: a caller signed in to another account than the link's is refused. */
  @Handles(Rpc.resetPassword)
  resetPassword(body: Body<typeof Rpc.resetPassword>, meta: RequestMeta) {
    return this.resetPasswordWithToken.execute(body, meta.userId);
  }

  @Handles(Rpc.deleteAccount)
  delete({ password }: Body<typeof Rpc.deleteAccount>, meta: SignedInMeta) {
    return this.deleteAccount.execute(meta.userId, password);
  }
}
