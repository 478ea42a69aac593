import { createHash } from 'node:crypto';
import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  AccountMessages,
  DeleteAccountSchema,
  ErrorCode,
  HttpRoutes,
  LoginRequestSchema,
  PasswordResetRequestSchema,
  PasswordResetSchema,
  RegisterRequestSchema,
  Rpc,
  VerifyEmailSchema,
  type DeleteAccount,
  type LoginRequest,
  type MessageResponse,
  type PasswordReset,
  type PasswordResetRequest,
  type RegisterRequest,
  type RequestMeta,
  type SessionResponse,
  type SessionUser,
  type VerifyEmail,
} from '@digicard/contracts';
import { ApiHttpException, CONFIG } from '@digicard/server';
import type { Config } from '../config.js';
import { CurrentSession, Meta } from '../http/request-meta.js';
import { ZodBody } from '../http/zod-body.pipe.js';
import { GatewayRpc } from '../rpc/rpc.client.js';
import { RateLimiter } from '../security/rate-limiter.js';
import { requireAccount } from '../session/require-session.js';
import { clearSessionCookie, writeSessionCookie } from '../session/session.cookie.js';
import { SessionStore, type Session } from '../session/session.store.js';

const emailKey = (email: string): string => createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');

@Controller()
export class AccountsController {
  constructor(
    @Inject(GatewayRpc) private readonly rpc: GatewayRpc,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(SessionStore) private readonly sessions: SessionStore,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** A new session id at every sign-in; the old session, if any, ends. */
  private async signIn(res: Response, user: SessionUser, previous: Session | null): Promise<SessionResponse> {
    if (previous) await this.sessions.destroy(previous.id, previous.data.accountId);
    const session = await this.sessions.create(user.id, user.role);
    writeSessionCookie(res, session.id, this.config.SESSION_ABSOLUTE_HOURS * 3_600_000);
    return { user, csrfToken: session.data.csrfToken };
  }

  @Post(HttpRoutes.register.path)
  @HttpCode(201)
  async register(
    @Body(new ZodBody(RegisterRequestSchema)) body: RegisterRequest,
    @Meta() meta: RequestMeta,
    @CurrentSession() session: Session | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionResponse> {
    await this.limiter.hit('register-ip', meta.ip ?? 'unknown', this.config.RATE_LIMIT_REGISTER_IP, 'refuse');
    const user = await this.rpc.call(Rpc.register, body, meta);
    return this.signIn(res, user, session);
  }

  @Get(HttpRoutes.getSession.path)
  async current(@CurrentSession() session: Session | null, @Meta() meta: RequestMeta, @Res({ passthrough: true }) res: Response): Promise<SessionResponse> {
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

  @Post(HttpRoutes.login.path)
  @HttpCode(200)
  async login(
    @Body(new ZodBody(LoginRequestSchema)) body: LoginRequest,
    @Meta() meta: RequestMeta,
    @CurrentSession() session: Session | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionResponse> {
    await this.limiter.hit('login-ip', meta.ip ?? 'unknown', this.config.RATE_LIMIT_LOGIN_IP, 'refuse');
    await this.limiter.hit('login-account', emailKey(body.email), this.config.RATE_LIMIT_LOGIN_ACCOUNT, 'refuse');
    let user: SessionUser;
    try {
      user = await this.rpc.call(Rpc.authenticate, body, meta);
    } catch (error) {
      if (error instanceof ApiHttpException && error.body.statusCode === 401) throw error;
      if (error instanceof ApiHttpException && error.body.statusCode === 503) throw error;
      throw new ApiHttpException({ statusCode: 401, code: ErrorCode.LoginFailed, message: AccountMessages.loginFailed });
    }
    return this.signIn(res, user, session);
  }

  @Delete(HttpRoutes.logout.path)
  @HttpCode(204)
  async logout(@CurrentSession() session: Session | null, @Res({ passthrough: true }) res: Response): Promise<void> {
    if (session) await this.sessions.destroy(session.id, session.data.accountId);
    clearSessionCookie(res);
  }

  @Delete(HttpRoutes.deleteAccount.path)
  @HttpCode(200)
  async deleteAccount(
    @Body(new ZodBody(DeleteAccountSchema)) body: DeleteAccount,
    @CurrentSession() session: Session | null,
    @Meta() meta: RequestMeta,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MessageResponse> {
    const accountId = requireAccount(session);
    await this.limiter.hit('login-account', accountId, this.config.RATE_LIMIT_LOGIN_ACCOUNT, 'refuse');
    await this.rpc.call(Rpc.deleteAccount, body, meta);
    await this.sessions.destroyAllFor(accountId);
    clearSessionCookie(res);
    return { message: AccountMessages.accountDeleted };
  }

  @Post(HttpRoutes.verifyEmail.path)
  @HttpCode(200)
  async verifyEmail(@Body(new ZodBody(VerifyEmailSchema)) body: VerifyEmail, @Meta() meta: RequestMeta): Promise<MessageResponse> {
    await this.limiter.hit('verify-ip', meta.ip ?? 'unknown', this.config.RATE_LIMIT_VERIFY_IP, 'refuse');
    await this.rpc.call(Rpc.verifyEmail, body, meta);
    return { message: AccountMessages.verified };
  }

  @Post(HttpRoutes.resendVerification.path)
  @HttpCode(202)
  async resendVerification(@CurrentSession() session: Session | null, @Meta() meta: RequestMeta): Promise<MessageResponse> {
    if (!session) throw new ApiHttpException({ statusCode: 401, code: ErrorCode.Unauthorized, message: 'Please log in first.' });
    await this.limiter.hit('resend-account', session.data.accountId, this.config.RATE_LIMIT_RESEND_ACCOUNT);
    const { requested } = await this.rpc.call(Rpc.requestVerification, {}, meta);
    return { message: requested ? AccountMessages.verificationSent : AccountMessages.verified };
  }

  @Post(HttpRoutes.requestPasswordReset.path)
  @HttpCode(202)
  async requestPasswordReset(
    @Body(new ZodBody(PasswordResetRequestSchema)) body: PasswordResetRequest,
    @Meta() meta: RequestMeta,
  ): Promise<MessageResponse> {
    await this.limiter.hit('reset-ip', meta.ip ?? 'unknown', this.config.RATE_LIMIT_RESET_IP, 'refuse');
    await this.limiter.hit('reset-account', emailKey(body.email), this.config.RATE_LIMIT_RESET_ACCOUNT, 'refuse');
    await this.rpc.call(Rpc.requestPasswordReset, body, meta);
    return { message: AccountMessages.resetSent };
  }

  @Post(HttpRoutes.resetPassword.path)
  @HttpCode(200)
  async resetPassword(
    @Body(new ZodBody(PasswordResetSchema)) body: PasswordReset,
    @Meta() meta: RequestMeta,
    @CurrentSession() session: Session | null,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionResponse> {
    await this.limiter.hit('verify-ip', meta.ip ?? 'unknown', this.config.RATE_LIMIT_VERIFY_IP, 'refuse');
    const user = await this.rpc.call(Rpc.resetPassword, body, meta);
    // A reset ends every session of the account, wherever it was signed in, before signing this one in.
    await this.sessions.destroyAllFor(user.id);
    return this.signIn(res, user, session?.data.accountId === user.id ? null : session);
  }
}
