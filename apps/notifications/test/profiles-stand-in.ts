import { ProfileDefaults, Rpc, type Membership } from '@digicard/contracts';
import { connectNats, type NatsConnection } from '@digicard/messaging';

/**
 * STAND-IN FOR THE PROFILES SERVICE: answers `profiles.profile.get-for-account` (Nest's NATS reply format) with the tier
 * listed in `tiers` for the account asked about, 404 for any other. Notifications reads only the tier.
 */
export async function startProfilesStandIn(natsUrl: string, tiers: ReadonlyMap<string, Membership>): Promise<NatsConnection> {
  const nc = await connectNats(natsUrl, 'profiles-stand-in');
  nc.subscribe(Rpc.profileOfAccount.subject, {
    callback: (_error, msg) => {
      const packet = msg.json<{ id: string; data: { body: { accountId: string } } }>();
      const tier = tiers.get(packet.data.body.accountId);
      const profile = tier && {
        username: 'owner',
        firstName: 'Naledi',
        lastName: 'Dlamini',
        email: 'naledi@example.test',
        membership: tier,
        isVerified: true,
        isPublic: true,
        document: ProfileDefaults,
        updatedAt: new Date().toISOString(),
      };
      const reply = profile
        ? { id: packet.id, response: profile, isDisposed: true }
        : { id: packet.id, err: { statusCode: 404, code: 'NOT_FOUND', message: 'Profile not found.' }, isDisposed: true };
      msg.respond(JSON.stringify(reply));
    },
  });
  await nc.flush();
  return nc;
}
