import { Inject, Injectable } from '@nestjs/common';
import { Events, MembershipSchema, type MembershipChanged } from '@digicard/contracts';
import { can } from '@digicard/domain';
import { OnEvent, type EventContext } from '@digicard/server';
import { StaffRepository } from './staff.repository.js';
import { changeRole } from './use-cases/change-role.js';

/** Whether a tier (as stored: any string) unlocks teams, which makes its owner a team leader. */
const leadsTeams = (membership: string | null): boolean => {
  const parsed = MembershipSchema.safeParse(membership);
  return parsed.success && can(parsed.data, 'teams');
};

/**
 * A DigiPlatinum subscription makes its owner a team leader; losing DigiPlatinum (the subscription lapsed, ended or
 * moved to a lower tier) makes them an ordinary user again. The team is not touched: the reps keep their accounts
 * and pages and share the leader's tier as it is now (profiles), and a leader who subscribes again finds the team
 * as it was. Only an ordinary user becomes a leader this way (a team member, print or staff account keeps its
 * role), and only a leader whose DigiPlatinum this was loses the role (a leader made by staff without a subscription
 * is not demoted by an unrelated tier). Idempotent: a redelivered event is skipped (processed_messages), an older
 * version is ignored (`memberships`), and the role is only written, with `identity.user.role-changed`, when it changes.
 */
@Injectable()
export class MembershipRoles {
  constructor(@Inject(StaffRepository) private readonly staff: StaffRepository) {}

  @OnEvent(Events.membershipChanged)
  async changed(data: MembershipChanged, { tx }: EventContext): Promise<void> {
    const account = await this.staff.lock(tx, data.accountId);
    // A deleted account: nothing to keep about it.
    if (!account) return;
    const before = await this.staff.membershipOf(tx, data.accountId);
    const newer = await this.staff.recordMembership(tx, {
      accountId: data.accountId,
      membership: data.membership,
      version: data.version,
      changedAt: new Date(data.changedAt),
    });
    if (!newer) return;

    let role: 'teamLeader' | 'user' | null = null;
    if (leadsTeams(data.membership) && account.role === 'user') role = 'teamLeader';
    else if (!leadsTeams(data.membership) && leadsTeams(before) && account.role === 'teamLeader') role = 'user';
    if (!role) return;
    await changeRole(tx, this.staff, { accountId: account.id, from: account.role, to: role });
  }
}
