import { Controller, Inject } from '@nestjs/common';
import { Rpc } from '@digicard/contracts';
import { Handles, exportChunk, type RpcBody as Body, type SignedInMeta } from '@digicard/server';
import { TeamQueries } from './team-queries.js';
import { AddReps } from './use-cases/add-reps.use-case.js';
import { RemoveRep } from './use-cases/remove-rep.use-case.js';
import { UpdateRep } from './use-cases/update-rep.use-case.js';

/** The teams service's subjects (team leaders only, checked by @Handles from the contract), each one call. */
@Controller()
export class TeamController {
  constructor(
    @Inject(TeamQueries) private readonly queries: TeamQueries,
    @Inject(AddReps) private readonly addReps: AddReps,
    @Inject(UpdateRep) private readonly updateOne: UpdateRep,
    @Inject(RemoveRep) private readonly removeOne: RemoveRep,
  ) {}

  @Handles(Rpc.exportTeamsData)
  exportData(page: Body<typeof Rpc.exportTeamsData>, meta: SignedInMeta) {
    return exportChunk(page, () => this.queries.accountData(meta.userId), []);
  }

  @Handles(Rpc.listTeam)
  list(page: Body<typeof Rpc.listTeam>, meta: SignedInMeta) {
    return this.queries.team(meta, page);
  }

  @Handles(Rpc.addRep)
  add({ leaderPassword, ...rep }: Body<typeof Rpc.addRep>, meta: SignedInMeta) {
    return this.addReps.one(rep, leaderPassword, meta);
  }

  @Handles(Rpc.importReps)
  async import({ reps, leaderPassword, dryRun }: Body<typeof Rpc.importReps>, meta: SignedInMeta) {
    await this.addReps.execute(reps, leaderPassword, dryRun, meta);
    return {
      created: !dryRun,
      reps: reps.map(({ username, firstName, lastName, email, tel }) => ({ username, firstName, lastName, email, tel })),
    };
  }

  @Handles(Rpc.updateRep)
  update({ accountId, ...fields }: Body<typeof Rpc.updateRep>, meta: SignedInMeta) {
    return this.updateOne.execute(accountId, fields, meta);
  }

  @Handles(Rpc.removeRep)
  remove({ accountId }: Body<typeof Rpc.removeRep>, meta: SignedInMeta) {
    return this.removeOne.execute(accountId, meta);
  }
}
