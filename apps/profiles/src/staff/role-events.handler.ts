import { Inject, Injectable } from '@nestjs/common';
import { Events } from '@digicard/contracts';
import { OnEvent, type EventContext } from '@digicard/server';
import { StaffRepository } from './staff.repository.js';

/** Keeps the role profiles holds of each account in step when staff change it in identity. */
@Injectable()
export class RoleEvents {
  constructor(@Inject(StaffRepository) private readonly staff: StaffRepository) {}

  @OnEvent(Events.roleChanged)
  async roleChanged(data: { accountId: string; role: string }, { tx }: EventContext): Promise<void> {
    await this.staff.setRole(tx, data.accountId, data.role);
  }
}
