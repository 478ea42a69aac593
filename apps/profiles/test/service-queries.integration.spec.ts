import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Events, Rpc } from '@digicard/contracts';
import { InProcessService } from '@digicard/service-testing';
import type { Config } from '../src/config.js';
import { profilesService } from '../src/service.js';

// The queries other services make of profiles about an account they act for (not the caller's own): the account is
// named in the body, whoever `meta` says is asking. Only services' NATS users may send them (see libs/contracts bus.ts).

let service: InProcessService<Config>;

beforeAll(async () => {
  service = await InProcessService.start(profilesService);
});

afterAll(async () => {
  await service.stop();
});

describe('profileOfAccount', () => {
  it("answers the named account's profile, whoever asks; 404 for an account without one; 400 without an account", async () => {
    const accountId = randomUUID();
    const registered = {
      accountId,
      username: 'lindiwe',
      email: 'lindiwe@example.test',
      firstName: 'Lindiwe',
      lastName: 'Khumalo',
      role: 'user' as const,
      registeredAt: new Date().toISOString(),
    };
    await service.handled(Events.userRegistered, await service.publish(Events.userRegistered, registered));

    expect(await service.call(Rpc.profileOfAccount, { accountId }, null)).toMatchObject({
      ok: true,
      value: { username: 'lindiwe', firstName: 'Lindiwe', membership: 'DigiShare' },
    });
    // Another signed-in account in meta changes nothing: the body names the account.
    expect(await service.call(Rpc.profileOfAccount, { accountId }, { accountId: randomUUID(), role: 'user' })).toMatchObject({
      ok: true,
      value: { username: 'lindiwe' },
    });
    expect(await service.call(Rpc.profileOfAccount, { accountId: randomUUID() }, null)).toMatchObject({ ok: false, status: 404 });
    expect(await service.call(Rpc.profileOfAccount, { accountId: 'lindiwe' } as never, null)).toMatchObject({ ok: false, status: 400 });
  });
});
