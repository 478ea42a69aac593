import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import {
  AccountMessages,
  ErrorCode,
  Rpc,
  type AccountNames,
  type DeleteAccount,
  type EmailChangeConfirm,
  type EmailChangeRequest,
  type EmailLinkCheck,
  type EmailLinkOwner,
  type SessionUser,
  type MessageResponse,
  type PasswordReset,
  type PasswordResetRequest,
  type RegisterRequest,
  type RegisteredResponse,
  type RequestMeta,
  type SessionResponse,
  type VerifyEmail,
} from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import { SessionSignIn } from '../auth/session-sign-in.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { clearSessionCookie } from '../session/session.cookie.js';
import { SessionStore, type Session } from '../session/session.store.js';

/** What the account routes do once `@Route` let the request through: ask identity, then start or end sessions. */
@Injectable()
export class AccountFlows {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(SessionStore) private readonly sessions: SessionStore,
    @Inject(SessionSignIn) private readonly signIn: SessionSignIn,
  ) {}

  /**
   * The same answer whether the email was new or has an account (identity emails its owner then), and no session
   * either way: a session would say which it was. The verification link signs the new account in.
   */
  async register(body: RegisterRequest, meta: RequestMeta): Promise<RegisteredResponse> {
    await this.rpc.call(Rpc.register, body, meta);
    return { registered: true, message: AccountMessages.registered };
  }

  /** The signed-in account, or nulls; a session whose account is gone is ended. */
  async current(session: Session | null, meta: RequestMeta, res: Response): Promise<SessionResponse> {
    res.setHeader('Cache-Control', 'no-store');
    if (!session) return { user: null, csrfToken: null };
    try {
      const user = await this.rpc.call(Rpc.getAccount, {}, meta);
      return { user, csrfToken: session.data.csrfToken };
    } catch (error) {
      if (error instanceof ApiHttpException && error.body.statusCode === 404) {
        await this.sessions.destroy(session.id, session.data.accountId);
        clearSessionCookie(res);
        return { user: null, csrfToken: null };
      }
      throw error;
    }
  }

  async delete(accountId: string, body: DeleteAccount, meta: RequestMeta, res: Response): Promise<MessageResponse> {
    await this.rpc.call(Rpc.deleteAccount, body, meta);
    await this.sessions.destroyAllFor(accountId);
    clearSessionCookie(res);
    return { message: AccountMessages.accountDeleted };
  }

  /**
   * The link came to the account's mailbox: it proves the address, and signs that account in when signed out
   * (registration does not). A browser signed in to another account is refused by identity (409, nothing spent,
   * `meta.userId` says who is signed in): its page asks, and signs out first when its person agrees. A link never
   * switches accounts by itself (login CSRF: a stranger's link would sign the victim in to the stranger's account).
   */
  async verifyEmail(body: VerifyEmail, meta: RequestMeta, previous: Session | null, res: Response): Promise<MessageResponse> {
    const user = await this.rpc.call(Rpc.verifyEmail, body, meta);
    keepsAccount(previous, user.id);
    if (!previous) await this.signIn.start(res, user, null);
    return { message: AccountMessages.verified };
  }

  /** Whose account a link is for, before the signed-in browser uses it (the page asks before switching). */
  checkEmailLink(body: EmailLinkCheck, meta: RequestMeta): Promise<EmailLinkOwner> {
    return this.rpc.call(Rpc.checkEmailLink, body, meta);
  }

  /** The owner's names: identity keeps them, profiles' copy and the cached public page follow from its event. */
  rename(body: AccountNames, meta: RequestMeta): Promise<SessionUser> {
    return this.rpc.call(Rpc.renameAccount, body, meta);
  }

  /** The same answer whether the new address was free or has an account (only the mailboxes hear more). */
  async requestEmailChange(body: EmailChangeRequest, meta: RequestMeta): Promise<MessageResponse> {
    await this.rpc.call(Rpc.requestEmailChange, body, meta);
    return { message: AccountMessages.emailChangeSent };
  }

  /** The link sent to the new address; it works in any browser, signed in or not (sessions stay as they are). */
  async confirmEmailChange(body: EmailChangeConfirm, meta: RequestMeta): Promise<MessageResponse> {
    await this.rpc.call(Rpc.confirmEmailChange, body, meta);
    return { message: AccountMessages.emailChanged };
  }

  async resendVerification(meta: RequestMeta): Promise<MessageResponse> {
    const { requested } = await this.rpc.call(Rpc.requestVerification, {}, meta);
    return { message: requested ? AccountMessages.verificationSent : AccountMessages.verified };
  }

  async requestPasswordReset(body: PasswordResetRequest, meta: RequestMeta): Promise<MessageResponse> {
    await this.rpc.call(Rpc.requestPasswordReset, body, meta);
    return { message: AccountMessages.resetSent };
  }

  /** As verifyEmail: signed in to another account, identity refuses (409) and nothing changes. */
  async resetPassword(body: PasswordReset, meta: RequestMeta, previous: Session | null, res: Response): Promise<SessionResponse> {
    const user = await this.rpc.call(Rpc.resetPassword, body, meta);
    keepsAccount(previous, user.id);
    // A reset ends every session of the account, wherever it was signed in (this one too), before signing this one in.
    await this.sessions.destroyAllFor(user.id);
    return this.signIn.start(res, user, null);
  }
}

/**
 * The gateway's own check of identity's rule: a link's answer for another account than the signed-in one never
 * replaces the session (identity refuses before spending the link; this holds even if it did not).
 */
function keepsAccount(previous: Session | null, accountId: string): void {
  if (previous && previous.data.accountId !== accountId) {
    throw new ApiHttpException({ statusCode: 409, code: ErrorCode.LinkForOtherAccount, message: AccountMessages.linkForOtherAccount });
  }
}
