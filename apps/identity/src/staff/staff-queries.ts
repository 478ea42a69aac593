import { Inject, Injectable } from '@nestjs/common';
import type { Rpc, StaffAuditPage, StaffIdentityView, StaffSearchResult } from '@digicard/contracts';
import type { Database } from '@digicard/db';
import { DATABASE, pageStart, toPage, type RpcBody } from '@digicard/server';
import { AccountErrors } from '../accounts/account.errors.js';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { StaffAccess } from './staff-access.js';
import { toAuditEntry, toSummary } from './staff.mapping.js';
import { StaffRepository } from './staff.repository.js';

/** What staff read in identity: accounts found by email, username or name, one account, and its audit a page at a time. */
@Injectable()
export class StaffQueries {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
    @Inject(StaffRepository) private readonly staff: StaffRepository,
    @Inject(StaffAccess) private readonly access: StaffAccess,
  ) {}

  /** The accounts found, newest first, a page at a time (a cursor is a position in the search's answers). */
  async find(staffAccountId: string, { query, ...page }: RpcBody<typeof Rpc.staffFindAccounts>): Promise<StaffSearchResult> {
    await this.access.assertStaff(staffAccountId);
    const rows = await this.staff.searchPage(this.db, query, pageStart(page), page.limit);
    const { items, nextCursor } = await toPage(
      rows.map((r) => ({ ...r, id: r.account.id })),
      page.limit,
      (taken) => taken.map((r) => toSummary(r.account)),
    );
    return { accounts: items, nextCursor };
  }

  async inspect(staffAccountId: string, accountId: string): Promise<StaffIdentityView> {
    await this.access.assertStaff(staffAccountId);
    const account = await this.accounts.findById(this.db, accountId);
    if (!account) throw AccountErrors.accountNotFound();
    return { account: toSummary(account) };
  }

  /** A page of the account's audited changes, newest first (404 for an account identity does not know). */
  async audit(staffAccountId: string, { accountId, ...page }: RpcBody<typeof Rpc.staffAccountAudit>): Promise<StaffAuditPage> {
    await this.access.assertStaff(staffAccountId);
    if (!(await this.accounts.findById(this.db, accountId))) throw AccountErrors.accountNotFound();
    const rows = await this.staff.auditPage(this.db, accountId, pageStart(page), page.limit);
    const { items, nextCursor } = await toPage(rows, page.limit, (taken) => taken.map(toAuditEntry));
    return { entries: items, nextCursor };
  }
}
