import { Controller, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  HttpRoutes,
  type AccountNames,
  type DeleteAccount,
  type EmailChangeConfirm,
  type EmailChangeRequest,
  type EmailLinkCheck,
  type EmailLinkOwner,
  type MessageResponse,
  type PasswordReset,
  type PasswordResetRequest,
  type RegisterRequest,
  type RegisteredResponse,
  type RequestMeta,
  type SessionResponse,
  type SessionUser,
  type VerifyEmail,
} from '@digicard/contracts';
import { SessionSignIn } from '../auth/session-sign-in.js';
import { CurrentSession, Meta } from '../http/request-meta.js';
import { Route } from '../http/route.js';
import { AccountId, SignedInUser, ValidBody } from '../http/route-params.js';
import type { Session } from '../session/session.store.js';
import { AccountFlows } from './account-flows.js';

@Controller()
export class AccountsController {
  constructor(
    @Inject(AccountFlows) private readonly accounts: AccountFlows,
    @Inject(SessionSignIn) private readonly signIn: SessionSignIn,
  ) {}

  @Route(HttpRoutes.register)
  register(@ValidBody() body: RegisterRequest, @Meta() meta: RequestMeta): Promise<RegisteredResponse> {
    return this.accounts.register(body, meta);
  }

  @Route(HttpRoutes.getSession)
  current(
    @CurrentSession() session: Session | null,
    @Meta() meta: RequestMeta,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionResponse> {
    return this.accounts.current(session, meta, res);
  }

  /** Passport's local strategy has checked the password (after the limits); the session is ours. */
  @Route(HttpRoutes.login)
  login(
    @SignedInUser() user: SessionUser,
    @CurrentSession() session: Session | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionResponse> {
    return this.signIn.start(res, user, session);
  }

  @Route(HttpRoutes.logout)
  logout(@CurrentSession() session: Session | null, @Res({ passthrough: true }) res: Response): Promise<void> {
    return this.signIn.end(res, session);
  }

  @Route(HttpRoutes.deleteAccount)
  deleteAccount(
    @AccountId() accountId: string,
    @ValidBody() body: DeleteAccount,
    @Meta() meta: RequestMeta,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MessageResponse> {
    return this.accounts.delete(accountId, body, meta, res);
  }

  @Route(HttpRoutes.renameAccount)
  rename(@ValidBody() body: AccountNames, @Meta() meta: RequestMeta): Promise<SessionUser> {
    return this.accounts.rename(body, meta);
  }

  @Route(HttpRoutes.requestEmailChange)
  requestEmailChange(@ValidBody() body: EmailChangeRequest, @Meta() meta: RequestMeta): Promise<MessageResponse> {
    return this.accounts.requestEmailChange(body, meta);
  }

  @Route(HttpRoutes.confirmEmailChange)
  confirmEmailChange(@ValidBody() body: EmailChangeConfirm, @Meta() meta: RequestMeta): Promise<MessageResponse> {
    return this.accounts.confirmEmailChange(body, meta);
  }

  @Route(HttpRoutes.verifyEmail)
  verifyEmail(
    @ValidBody() body: VerifyEmail,
    @Meta() meta: RequestMeta,
    @CurrentSession() session: Session | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MessageResponse> {
    return this.accounts.verifyEmail(body, meta, session, res);
  }

  @Route(HttpRoutes.checkEmailLink)
  checkEmailLink(@ValidBody() body: EmailLinkCheck, @Meta() meta: RequestMeta): Promise<EmailLinkOwner> {
    return this.accounts.checkEmailLink(body, meta);
  }

  @Route(HttpRoutes.resendVerification)
  resendVerification(@Meta() meta: RequestMeta): Promise<MessageResponse> {
    return this.accounts.resendVerification(meta);
  }

  @Route(HttpRoutes.requestPasswordReset)
  requestPasswordReset(@ValidBody() body: PasswordResetRequest, @Meta() meta: RequestMeta): Promise<MessageResponse> {
    return this.accounts.requestPasswordReset(body, meta);
  }

  @Route(HttpRoutes.resetPassword)
  resetPassword(
    @ValidBody() body: PasswordReset,
    @Meta() meta: RequestMeta,
    @CurrentSession() session: Session | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionResponse> {
    return this.accounts.resetPassword(body, meta, session, res);
  }
}
