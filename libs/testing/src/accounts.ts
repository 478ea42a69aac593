import type { ApiClient } from './client.js';
import type { TestSystem } from './system.js';

export interface TestOwner {
  client: ApiClient;
  accountId: string;
  username: string;
  email: string;
  password: string;
}

/**
 * Registers an owner through the API and verifies the email by the link that arrives, as a person would (the link
 * signs the account in); with `verify: false`, signs in with the password instead (registering starts no session).
 */
export async function registerOwner(
  system: TestSystem,
  who: { username: string; firstName: string; lastName: string; email: string; password?: string },
  options: { verify?: boolean } = {},
): Promise<TestOwner> {
  const password = who.password ?? 'a long enough passphrase';
  const client = system.client();
  const res = await client.request('/api/accounts', { body: { ...who, password } });
  if (res.status !== 201) throw new Error(`registration of ${who.username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  if (options.verify !== false) {
    const mail = await system.mail.waitFor(
      (m) => m.to.some((t) => t.toLowerCase() === who.email.toLowerCase()) && /Verify your email/.test(m.subject),
    );
    const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    if (!token) throw new Error('no verification link');
    const verified = await client.request('/api/email-verification', { body: { token } });
    if (verified.status !== 200) throw new Error(`verification failed: ${verified.status}`);
  } else {
    const signedIn = await client.request('/api/session', { body: { email: who.email, password } });
    if (signedIn.status !== 200) throw new Error(`sign-in of ${who.username} failed: ${signedIn.status}`);
  }
  const session = await client.request('/api/session');
  const accountId = (session.body as { user: { id: string } | null }).user?.id;
  if (!accountId) throw new Error(`${who.username} is not signed in after registering`);
  // The profile is created from the registration event: wait until it exists.
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if ((await client.request('/api/profile')).status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { client, accountId, username: who.username, email: who.email, password };
}

/** Tests set a tier directly until the payments service publishes membership changes. */
export async function setMembership(system: TestSystem, username: string, membership: string): Promise<void> {
  await system.sql('UPDATE profiles.profiles SET membership = $1 WHERE username = $2', [membership, username]);
}
