import { Inject, Injectable } from '@nestjs/common';
import type { EmailLinkCheck, EmailLinkOwner } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE } from '@digicard/server';
import { AccountErrors } from '../account.errors.js';
import { EmailTokensRepository } from '../email-tokens.repository.js';
import { maskEmail } from '../email-mask.js';
import { hashToken } from '../tokens.js';

/**
 * Whose account a live verification or reset link is for, asked by a signed-in browser before it uses the link: the
 * signed-in account's, or another one, named only by its masked address (the page asks its person before switching).
 * Nothing is spent; unknown, used and expired links get the same answer as when they are used.
 */
@Injectable()
export class CheckEmailLink {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(EmailTokensRepository) private readonly tokens: EmailTokensRepository,
  ) {}

  async execute(viewerId: string, { purpose, token }: EmailLinkCheck): Promise<EmailLinkOwner> {
    const owner = await this.tokens.findByLiveToken(this.db, hashToken(token), purpose, new Date());
    if (!owner) throw AccountErrors.linkInvalid();
    return { forSignedInAccount: owner.id === viewerId, maskedEmail: maskEmail(owner.email) };
  }
}
