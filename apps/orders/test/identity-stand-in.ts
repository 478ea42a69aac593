import { Rpc, type Role } from '@digicard/contracts';
import type { NatsConnection } from '@digicard/messaging';

/**
 * A stand-in for identity on `nc`, answering `getAccount` (asked as the account, as orders' role check asks it) with
 * the role `roleOf` gives the caller, or 503 when it says identity is `away`; and `provedEmail` (asked for the export)
 * with the same address, proved.
 */
export function answerAccountsAsIdentity(nc: NatsConnection, roleOf: (accountId: string) => Role | 'away'): void {
  nc.subscribe(Rpc.getAccount.subject, {
    callback: (_error, msg) => {
      const packet = msg.json<{ id: string; data: { meta: { userId: string } } }>();
      const id = packet.data.meta.userId;
      const role = roleOf(id);
      const reply =
        role === 'away'
          ? { id: packet.id, err: { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: 'identity is away' }, isDisposed: true }
          : {
              id: packet.id,
              response: { id, username: 'someone', email: 'someone@example.co.za', firstName: 'S', lastName: 'O', role, isVerified: true },
              isDisposed: true,
            };
      msg.respond(JSON.stringify(reply));
    },
  });
  nc.subscribe(Rpc.provedEmail.subject, {
    callback: (_error, msg) => {
      const packet = msg.json<{ id: string; data: { body: { accountId: string } } }>();
      const away = roleOf(packet.data.body.accountId) === 'away';
      const reply = away
        ? { id: packet.id, err: { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: 'identity is away' }, isDisposed: true }
        : { id: packet.id, response: { email: 'someone@example.co.za', provedAt: new Date().toISOString() }, isDisposed: true };
      msg.respond(JSON.stringify(reply));
    },
  });
}
