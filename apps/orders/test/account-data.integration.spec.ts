import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Rpc } from '@digicard/contracts';
import { newEmailToken } from '@digicard/server';
import { InProcessService } from '@digicard/service-testing';
import { TestSystem } from '@digicard/testing';
import type { Config } from '../src/config.js';
import { ordersService } from '../src/service.js';
import { ordersEnv } from './orders-env.js';

// The orders part of the data export with the real identity service (a process on the same NATS server as this
// in-process orders service): the enquiries sent under the account's email, only once the account proved the address.

let system: TestSystem;
let service: InProcessService<Config>;
const environment = ordersEnv();

beforeAll(async () => {
  system = await TestSystem.start({ apps: ['identity', 'profiles'] });
  service = await InProcessService.start(ordersService, { ...environment.env, NATS_URL: system.nats.url });
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await system?.stop();
  await environment.cleanUp();
});

describe('enquiries in the data export', () => {
  it('leaves out the enquiries under an address the account has not verified, and adds them once it has', async () => {
    // Someone else's enquiries, sent under the address before anyone registered it.
    const sent = await service.call(Rpc.submitEnquiry, { kind: 'message', name: 'Sipho Dube', email: 'Sipho@Company.example', message: 'Private: our budget is R90 000.' });
    expect(sent.ok).toBe(true);
    const registered = await service.call(Rpc.register, { username: 'sipho-d', firstName: 'Sipho', lastName: 'Dube', email: 'sipho@company.example', password: 'kudu-braai-2026' });
    if (!registered.ok || !registered.value.accountId) throw new Error('not registered');
    const accountId = registered.value.accountId;
    const meta = { accountId };

    const unproved = await service.call(Rpc.exportOrdersData, {}, meta);
    if (!unproved.ok) throw new Error(unproved.message);
    expect(unproved.value.enquiries).toEqual([]);
    expect(JSON.stringify(unproved.value)).not.toContain('R90 000');

    const { token, tokenHash } = newEmailToken();
    await service.call(Rpc.issueVerificationToken, { accountId, tokenHash });
    expect((await service.call(Rpc.verifyEmail, { token })).ok).toBe(true);
    const proved = await service.call(Rpc.exportOrdersData, {}, meta);
    if (!proved.ok) throw new Error(proved.message);
    expect((proved.value.enquiries as Array<{ message: string }>).map((e) => e.message)).toEqual(['Private: our budget is R90 000.']);
  });
});
