import { Module } from '@nestjs/common';
import { AccountQueries } from './account-queries.js';
import { AccountsController } from './accounts.controller.js';
import { AccountsRepository } from './accounts.repository.js';
import { CredentialsRepository } from './credentials.repository.js';
import { EmailTokensRepository } from './email-tokens.repository.js';
import { PasswordHashing } from './password-hashing.js';
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

@Module({
  controllers: [AccountsController],
  providers: [
    AccountsRepository,
    CredentialsRepository,
    EmailTokensRepository,
    PasswordHashing,
    AccountQueries,
    RegisterAccount,
    Authenticate,
    SsoSignIn,
    VerifyEmail,
    CheckEmailLink,
    RequestVerification,
    IssueEmailToken,
    RequestPasswordReset,
    ResetPassword,
    DeleteAccount,
    CreateRepAccounts,
    UpdateRepAccount,
    DisableRepAccount,
    EnableRepAccount,
    RenameAccount,
    RequestEmailChange,
    IssueEmailChangeToken,
    ConfirmEmailChange,
  ],
})
export class AccountsModule {}
