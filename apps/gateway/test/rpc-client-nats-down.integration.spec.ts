import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Rpc } from '@digicard/contracts';
import { PrivateNats } from '@digicard/testing';
import { RpcCallError, RpcClient, createNatsClient } from '@digicard/server';

const meta = { requestId: 'r1', userId: null, role: null, ip: null };

describe('RpcClient when NATS itself is away', () => {
  const nats = new PrivateNats();
  let client: RpcClient;

  beforeAll(async () => {
    await nats.start();
    client = new RpcClient(createNatsClient(nats.url, 'rpc-client-test'), 1500);
    // Connected once (no service answers: that is "unavailable" too).
    await assert.rejects(
      client.call(Rpc.listCatalogue, {}, meta),
      (e: unknown) => e instanceof RpcCallError && e.failure === 'unavailable',
    );
  });
  afterAll(async () => {
    await (client.proxy.close() as Promise<void>);
    await nats.destroy();
  });

  it('says "unavailable" (the gateway answers 503), not "failed" (500), while the server is down', async () => {
    await nats.kill();
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < 3; i++) {
      const error = await client.call(Rpc.listCatalogue, {}, meta).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(error instanceof RpcCallError, String(error));
      assert.equal(error.failure, 'unavailable', error.message);
    }
  });
});
