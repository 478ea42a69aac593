import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '@digicard/db';
import { DATABASE, ServiceError } from '@digicard/server';
import { AccountsRepository } from '../accounts/accounts.repository.js';

/**
 * The second check of a staff subject, against identity's own records: `meta.role` (from the gateway's session) got
 * the call past @Handles; the account must still be staff here (a role taken away ends its powers at once).
 */
@Injectable()
export class StaffAccess {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(AccountsRepository) private readonly accounts: AccountsRepository,
  ) {}

  async assertStaff(staffAccountId: string): Promise<void> {
    const staff = await this.accounts.findById(this.db, staffAccountId);
    if (staff?.role !== 'staff') throw ServiceError.forbidden('Only staff may do that.');
  }
}
