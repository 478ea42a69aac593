import { Inject, Injectable } from '@nestjs/common';
import type { StaffIdentityView, StaffSearchResult } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE } from '@digicard/server';
import { AccountErrors } from '../accounts/account.errors.js';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { StaffAccess } from './staff-access.js';
import { toAuditEntry, toSummary } from './staff.mapping.js';
import { StaffRepository } from './staff.repository.js';

const SEARCH_LIMIT = 25;

/** What staff read in identity: accounts found by email, username or name, and one account with its audit. */
@Injectable()
export class StaffQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
    @Inject(StaffRepository) private readonly staff: StaffRepository,
    @Inject(StaffAccess) private readonly access: StaffAccess,
  ) {}

  async find(staffAccountId: string, query: string): Promise<StaffSearchResult> {
    await this.access.assertStaff(staffAccountId);
    return { accounts: (await this.staff.search(this.db, query, SEARCH_LIMIT)).map(toSummary) };
  }

  async inspect(staffAccountId: string, accountId: string): Promise<StaffIdentityView> {
    await this.access.assertStaff(staffAccountId);
    const account = await this.accounts.findById(this.db, accountId);
    if (!account) throw AccountErrors.accountNotFound();
    return { account: toSummary(account), audit: (await this.staff.auditOf(this.db, accountId)).map(toAuditEntry) };
  }
}
