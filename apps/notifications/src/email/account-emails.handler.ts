import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { DashboardSectionParam, Events, Rpc, WebRoutes, type EmailJob, type RequestMeta } from '@digicard/contracts';
import { CONFIG, OnEvent, newEmailToken, type EventContext, type RpcClient, RPC_CLIENT } from '@digicard/server';
import type { Config } from '../config.js';
import { AccountLookup } from './account-lookup.js';
import { EmailQueue, type EmailContext } from './email.producer.js';

const meta = (eventId: string): RequestMeta => ({ requestId: `event-${eventId}`, userId: null, role: null, ip: null });

type Data<E extends { data: z.ZodType }> = z.output<E['data']>;

/**
 * The emails of an account: verification, password reset, email change, a welcome for a new rep, a sign-up attempt
 * with a taken address. One job per event, its id derived from the event, so a redelivered event never sends twice.
 */
@Injectable()
export class AccountEmails {
  constructor(
    @Inject(EmailQueue) private readonly emails: EmailQueue,
    @Inject(RPC_CLIENT) private readonly bus: RpcClient,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(AccountLookup) private readonly accounts: AccountLookup,
  ) {}

  /** The owner asked for a new email: the link goes to the new address (made here; identity keeps only its hash). */
  @OnEvent(Events.emailChangeRequested)
  async emailChangeRequested(
    { accountId, newEmail }: Data<typeof Events.emailChangeRequested>,
    { eventId, tx, afterCommit }: EventContext,
  ): Promise<void> {
    const { token, tokenHash } = newEmailToken();
    // Null when a newer request (or the change itself) came since: that request's email is the one that counts.
    const issued = await this.bus.call(Rpc.issueEmailChangeToken, { accountId, newEmail, tokenHash }, meta(eventId));
    if (!issued) return;
    await this.emails.queueAfterCommit(
      { tx, afterCommit },
      {
        template: 'confirm-email-change',
        sourceEventId: eventId,
        to: issued.email,
        firstName: issued.firstName,
        link: `${this.config.PUBLIC_URL}${WebRoutes.confirmEmail}?token=${encodeURIComponent(token)}`,
        expiresAt: issued.expiresAt,
      },
    );
  }

  /** The change is done: a notice to the old address, without any link that acts on the account. */
  @OnEvent(Events.emailChanged)
  async emailChanged(change: Data<typeof Events.emailChanged>, { eventId, tx, afterCommit }: EventContext): Promise<void> {
    const owner = await this.accounts.accountOf(change.accountId, eventId);
    await this.emails.queueAfterCommit(
      { tx, afterCommit },
      {
        template: 'email-changed',
        sourceEventId: eventId,
        to: change.oldEmail,
        firstName: owner?.firstName ?? '',
        newEmail: change.newEmail,
        signInLink: `${this.config.PUBLIC_URL.replace(/\/+$/, '')}${WebRoutes.login}`,
      },
    );
  }

  /** Someone asked to move their account to this account's address: its owner hears of it (the asker learns nothing). */
  @OnEvent(Events.emailChangeAttempted)
  async emailChangeAttempted(
    { accountId }: Data<typeof Events.emailChangeAttempted>,
    { eventId, tx, afterCommit }: EventContext,
  ): Promise<void> {
    const owner = await this.accounts.accountOf(accountId, eventId);
    if (!owner) return;
    await this.emails.queueAfterCommit(
      { tx, afterCommit },
      {
        template: 'email-change-attempted',
        sourceEventId: eventId,
        to: owner.email,
        firstName: owner.firstName,
        signInLink: `${this.config.PUBLIC_URL.replace(/\/+$/, '')}${WebRoutes.login}`,
      },
    );
  }

  @OnEvent(Events.userRegistered)
  async registered({ accountId }: Data<typeof Events.userRegistered>, { eventId, tx, afterCommit }: EventContext): Promise<void> {
    await this.send({ tx, afterCommit }, await this.verificationEmail(accountId, eventId));
  }

  @OnEvent(Events.verificationRequested)
  async verificationRequested(
    { accountId }: Data<typeof Events.verificationRequested>,
    { eventId, tx, afterCommit }: EventContext,
  ): Promise<void> {
    await this.send({ tx, afterCommit }, await this.verificationEmail(accountId, eventId));
  }

  @OnEvent(Events.passwordResetRequested)
  async passwordResetRequested(
    { accountId }: Data<typeof Events.passwordResetRequested>,
    { eventId, tx, afterCommit }: EventContext,
  ): Promise<void> {
    const { token, tokenHash } = newEmailToken();
    const issued = await this.bus.call(Rpc.issuePasswordResetToken, { accountId, tokenHash }, meta(eventId));
    if (!issued) return;
    await this.emails.queueAfterCommit(
      { tx, afterCommit },
      {
        template: 'reset-password',
        sourceEventId: eventId,
        to: issued.email,
        firstName: issued.firstName,
        link: `${this.config.PUBLIC_URL}/reset-password?token=${encodeURIComponent(token)}`,
        expiresAt: issued.expiresAt,
      },
    );
  }

  /** A leader added a rep: a welcome, with a link to choose their own password (valid for a week). */
  @OnEvent(Events.teamMemberAdded)
  async teamMemberAdded(
    { memberAccountId, leaderAccountId }: Data<typeof Events.teamMemberAdded>,
    { eventId, tx, afterCommit }: EventContext,
  ): Promise<void> {
    const { token, tokenHash } = newEmailToken();
    const issued = await this.bus.call(Rpc.issueWelcomeToken, { accountId: memberAccountId, tokenHash }, meta(eventId));
    if (!issued) return;
    const leader = await this.accounts.accountOf(leaderAccountId, eventId);
    await this.emails.queueAfterCommit(
      { tx, afterCommit },
      {
        template: 'rep-welcome',
        sourceEventId: eventId,
        to: issued.email,
        firstName: issued.firstName,
        leaderName: leader ? `${leader.firstName} ${leader.lastName}`.trim() : 'Your team leader',
        link: `${this.config.PUBLIC_URL}/reset-password?token=${encodeURIComponent(token)}`,
        expiresAt: issued.expiresAt,
      },
    );
  }

  /**
   * A leader gave every rep their wallet pass: the rep is emailed a link per wallet offered, each to the QR Code section
   * of their own dashboard (`?section=qr&wallet=apple|google`), where they add their card signed in (decision 11).
   */
  @OnEvent(Events.walletPassOffered)
  async walletPassOffered(
    { email, firstName, leaderName, wallets }: Data<typeof Events.walletPassOffered>,
    { eventId, tx, afterCommit }: EventContext,
  ): Promise<void> {
    const base = this.config.PUBLIC_URL.replace(/\/+$/, '');
    const link = (wallet: 'apple' | 'google') => `${base}${WebRoutes.dashboard}?${DashboardSectionParam}=qr&wallet=${wallet}`;
    await this.emails.queueAfterCommit(
      { tx, afterCommit },
      {
        template: 'wallet-pass-offer',
        sourceEventId: eventId,
        to: email,
        firstName,
        leaderName,
        appleLink: wallets.apple ? link('apple') : null,
        googleLink: wallets.google ? link('google') : null,
      },
    );
  }

  /** Someone registered with an existing account's email: the owner hears of it (the stranger learns nothing). */
  @OnEvent(Events.registrationAttempted)
  async registrationAttempted(
    { accountId }: Data<typeof Events.registrationAttempted>,
    { eventId, tx, afterCommit }: EventContext,
  ): Promise<void> {
    const owner = await this.accounts.accountOf(accountId, eventId);
    if (!owner) return;
    const base = this.config.PUBLIC_URL.replace(/\/+$/, '');
    await this.emails.queueAfterCommit(
      { tx, afterCommit },
      {
        template: 'registration-attempted',
        sourceEventId: eventId,
        to: owner.email,
        firstName: owner.firstName,
        signInLink: `${base}${WebRoutes.login}`,
      },
    );
  }

  private async verificationEmail(accountId: string, eventId: string): Promise<EmailJob | null> {
    const { token, tokenHash } = newEmailToken();
    const issued = await this.bus.call(Rpc.issueVerificationToken, { accountId, tokenHash }, meta(eventId));
    if (!issued) return null;
    return {
      template: 'verify-email',
      sourceEventId: eventId,
      to: issued.email,
      firstName: issued.firstName,
      link: `${this.config.PUBLIC_URL}/verify-email?token=${encodeURIComponent(token)}`,
      expiresAt: issued.expiresAt,
    };
  }

  private async send(email: EmailContext, job: EmailJob | null): Promise<void> {
    if (job) await this.emails.queueAfterCommit(email, job);
  }
}
