import { Inject, Injectable } from '@nestjs/common';
import type { StaffProfileView } from '@digicard/contracts';
import { StaffRepository } from '../staff.repository.js';
import { AuditedChange } from './audited-change.js';

/** Staff mark a profile as a partner's or not (partners switch tiers freely). */
@Injectable()
export class SetPartner {
  constructor(
    @Inject(AuditedChange) private readonly change: AuditedChange,
    @Inject(StaffRepository) private readonly staff: StaffRepository,
  ) {}

  execute(staffAccountId: string, accountId: string, isPartner: boolean): Promise<StaffProfileView> {
    return this.change.run(staffAccountId, accountId, async (tx, row) => {
      if (row.isPartner === isPartner) return null;
      await this.staff.update(tx, accountId, { isPartner });
      return { change: 'partner', before: row.isPartner, after: isPartner };
    });
  }
}
