import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AccountMessages,
  ErrorCode,
  Events,
  type LoginRequest,
  type PasswordReset,
  type RegisterRequest,
  type SessionUser,
} from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { recordEvent, type OutboxRelay } from '@digicard/messaging';
import { DATABASE, OUTBOX_RELAY, ServiceError } from '@digicard/server';
import { outbox } from '../db/schema.js';
import { AccountsRepository, type AccountRow, type TokenPurpose } from './accounts.repository.js';
import { hashPassword, isCommonPassword, spendVerifyTime, verifyPassword } from './passwords.js';
import { TOKEN_LIFETIME_MS, hashToken, newToken } from './tokens.js';

export const toSessionUser = (a: AccountRow): SessionUser => ({
  id: a.id,
  username: a.username,
  email: a.email,
  firstName: a.firstName,
  lastName: a.lastName,
  role: a.role,
  isVerified: a.isVerified,
});

const fieldError = (field: string, message: string) =>
  new ServiceError({ statusCode: 400, code: ErrorCode.ValidationFailed, message: 'Please correct the highlighted fields.', fieldErrors: { [field]: [message] } });

const linkInvalid = () => new ServiceError({ statusCode: 400, code: ErrorCode.LinkInvalid, message: AccountMessages.linkInvalid });

const isUniqueViolation = (error: unknown, index: string): boolean => {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pg = e.cause ?? e;
  return pg.code === '23505' && pg.constraint === index;
};

export interface IssuedToken {
  token: string;
  email: string;
  firstName: string;
  expiresAt: string;
}

@Injectable()
export class AccountsService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OUTBOX_RELAY) private readonly relay: OutboxRelay,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
  ) {}

  async register(input: RegisterRequest): Promise<SessionUser> {
    if (isCommonPassword(input.password)) throw fieldError('password', AccountMessages.commonPassword);
    if (await this.accounts.findByUsername(this.db, input.username)) throw fieldError('username', AccountMessages.usernameTaken);
    if (await this.accounts.findByEmail(this.db, input.email)) throw fieldError('email', AccountMessages.emailTaken);
    const passwordHash = await hashPassword(input.password);
    try {
      const account = await this.db.transaction(async (tx) => {
        const row = await this.accounts.insert(tx, {
          id: randomUUID(),
          username: input.username,
          email: input.email,
          emailNormalized: input.email.toLowerCase(),
          firstName: input.firstName,
          lastName: input.lastName,
          passwordHash,
        });
        await recordEvent(tx, outbox, Events.userRegistered, {
          accountId: row.id,
          username: row.username,
          email: row.email,
          firstName: row.firstName,
          lastName: row.lastName,
          role: row.role,
          registeredAt: row.createdAt.toISOString(),
        });
        return row;
      });
      this.relay.kick();
      return toSessionUser(account);
    } catch (error) {
      // Two registrations raced for the same name or email: the unique index decides.
      if (isUniqueViolation(error, 'accounts_username_idx')) throw fieldError('username', AccountMessages.usernameTaken);
      if (isUniqueViolation(error, 'accounts_email_idx')) throw fieldError('email', AccountMessages.emailTaken);
      throw error;
    }
  }

  async authenticate({ email, password }: LoginRequest): Promise<SessionUser> {
    const account = await this.accounts.findByEmail(this.db, email);
    if (!account) {
      await spendVerifyTime(password);
      throw new ServiceError({ statusCode: 401, code: ErrorCode.UserNotFound, message: AccountMessages.userNotFound });
    }
    if (!(await verifyPassword(account.passwordHash, password))) {
      throw new ServiceError({ statusCode: 401, code: ErrorCode.WrongPassword, message: AccountMessages.wrongPassword });
    }
    return toSessionUser(account);
  }

  async get(accountId: string): Promise<SessionUser> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account) throw ServiceError.notFound('No such account.');
    return toSessionUser(account);
  }

  async verifyEmail(token: string): Promise<SessionUser> {
    const now = new Date();
    const account = await this.db.transaction(async (tx) => {
      const accountId = await this.accounts.consumeToken(tx, hashToken(token), 'verify-email', now);
      if (!accountId) return null;
      const current = await this.accounts.findById(tx, accountId);
      if (!current) return null;
      if (current.isVerified) return current;
      const row = await this.accounts.markVerified(tx, accountId, now);
      await recordEvent(tx, outbox, Events.userVerified, { accountId, verifiedAt: now.toISOString() });
      return row;
    });
    if (!account) throw linkInvalid();
    this.relay.kick();
    return toSessionUser(account);
  }

  /** Asks for a (new) verification email; the notifications service will send it. */
  async requestVerification(accountId: string): Promise<{ requested: boolean }> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account) throw ServiceError.notFound('No such account.');
    if (account.isVerified) return { requested: false };
    await this.db.transaction((tx) =>
      recordEvent(tx, outbox, Events.verificationRequested, { accountId, requestedAt: new Date().toISOString() }),
    );
    this.relay.kick();
    return { requested: true };
  }

  /** Says nothing about whether the email has an account: the answer is the same. */
  async requestPasswordReset(email: string): Promise<{ requested: boolean }> {
    const account = await this.accounts.findByEmail(this.db, email);
    if (account) {
      await this.db.transaction((tx) =>
        recordEvent(tx, outbox, Events.passwordResetRequested, { accountId: account.id, requestedAt: new Date().toISOString() }),
      );
      this.relay.kick();
    }
    return { requested: true };
  }

  /** Issues a single-use token for an email link. Called by the notifications service, never from the browser. */
  async issueToken(accountId: string, purpose: TokenPurpose): Promise<IssuedToken | null> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account || (purpose === 'verify-email' && account.isVerified)) return null;
    const token = newToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]);
    await this.db.transaction(async (tx) => {
      if (purpose === 'reset-password') await this.accounts.revokeTokens(tx, accountId, purpose, now);
      await this.accounts.insertToken(tx, accountId, purpose, hashToken(token), expiresAt);
    });
    return { token, email: account.email, firstName: account.firstName, expiresAt: expiresAt.toISOString() };
  }

  /** Deletes the account once its password is confirmed; `identity.user.deleted` tells the other services. */
  async delete(accountId: string, password: string): Promise<{ deleted: true }> {
    const account = await this.accounts.findById(this.db, accountId);
    if (!account) throw ServiceError.notFound('No such account.');
    if (!(await verifyPassword(account.passwordHash, password))) {
      throw new ServiceError({ statusCode: 401, code: ErrorCode.WrongPassword, message: AccountMessages.wrongPassword });
    }
    await this.db.transaction(async (tx) => {
      await this.accounts.delete(tx, accountId);
      await recordEvent(tx, outbox, Events.userDeleted, { accountId, deletedAt: new Date().toISOString() });
    });
    this.relay.kick();
    return { deleted: true };
  }

  async resetPassword({ token, password }: PasswordReset): Promise<SessionUser> {
    if (isCommonPassword(password)) throw fieldError('password', AccountMessages.commonPassword);
    const passwordHash = await hashPassword(password);
    const now = new Date();
    const account = await this.db.transaction(async (tx) => {
      const accountId = await this.accounts.consumeToken(tx, hashToken(token), 'reset-password', now);
      if (!accountId) return null;
      const row = await this.accounts.setPassword(tx, accountId, passwordHash, now);
      await recordEvent(tx, outbox, Events.passwordChanged, { accountId, changedAt: now.toISOString() });
      return row;
    });
    if (!account) throw linkInvalid();
    this.relay.kick();
    return toSessionUser(account);
  }
}
