import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Rpc, type SessionUser } from '@digicard/contracts';
import { InProcessGateway } from './support/in-process-gateway.js';

/**
 * Each gateway signs in through its own local strategy, even with another gateway in the same process (the in-process
 * tests start a second one beside the first: sso.integration.spec.ts). Passport keeps one process-wide list of
 * strategies by name; a gateway registered there would take the first one's sign-ins with its own clients, and once
 * stopped, its NATS client (Nest reconnects a closed client at its next call) reconnected without end, so that Jest
 * never exited. STAND-IN FOR IDENTITY: on each gateway's own NATS server, a responder on
 * `identity.account.authenticate` that answers an account named after its gateway.
 */
describe('a gateway’s sign-in with another gateway in the same process', () => {
  const password = 'a long enough passphrase';
  let first: InProcessGateway;
  let second: InProcessGateway | null = null;
  const responders: NatsConnection[] = [];

  async function identityStandIn(gateway: InProcessGateway, firstName: string): Promise<void> {
    const nats = await connect({ servers: gateway.natsUrl });
    responders.push(nats);
    const sub = nats.subscribe(Rpc.authenticate.subject);
    void (async () => {
      for await (const msg of sub) {
        const packet = JSON.parse(new TextDecoder().decode(msg.data)) as { id: string; data: { body: { email: string } } };
        const user: SessionUser = {
          id: randomUUID(),
          username: `${firstName.toLowerCase()}-user`,
          email: packet.data.body.email,
          firstName,
          lastName: 'Gateway',
          role: 'user',
          isVerified: true,
        };
        msg.respond(JSON.stringify({ id: packet.id, response: user, isDisposed: true }));
      }
    })();
    await nats.flush();
  }

  const signIn = async (gateway: InProcessGateway) => {
    const answer = await gateway.client().request('/api/session', { body: { email: 'lindiwe@example.co.za', password } });
    return { status: answer.status, firstName: (answer.body as { user?: SessionUser }).user?.firstName };
  };

  beforeAll(async () => {
    first = await InProcessGateway.start({ RATE_LIMIT_LOGIN_IP: '1000/60' });
    await identityStandIn(first, 'First');
    // Each on a NATS server of its own, so the answer says which gateway's client asked.
    second = await InProcessGateway.start({ RATE_LIMIT_LOGIN_IP: '1000/60' });
    await identityStandIn(second, 'Second');
  });
  afterAll(async () => {
    for (const nats of responders) await nats.close();
    await second?.stop();
    await first?.stop();
  });

  it('asks its own identity, while the other runs and after it has stopped', async () => {
    assert.deepEqual(await signIn(first), { status: 200, firstName: 'First' });
    assert.deepEqual(await signIn(second!), { status: 200, firstName: 'Second' });
    await second!.stop();
    second = null;
    assert.deepEqual(await signIn(first), { status: 200, firstName: 'First' }, 'the stopped gateway’s client is not asked');
  });
});
