import type { ApiClient } from './client.js';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { MailClient } from './mail.js';
import { REPO_ROOT, appProcessEnv, type TestSystem } from './system.js';

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
  /** A TestSystem, or any gateway a test runs (the in-process one): its mail only to verify by the link. */
  system: { client(): ApiClient; mail?: Pick<MailClient, 'waitFor'> },
  who: { username: string; firstName: string; lastName: string; email: string; password?: string },
  options: { verify?: boolean } = {},
): Promise<TestOwner> {
  const password = who.password ?? 'a long enough passphrase';
  const client = system.client();
  const res = await client.request('/api/accounts', { body: { ...who, password } });
  if (res.status !== 201) throw new Error(`registration of ${who.username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  if (options.verify !== false) {
    if (!system.mail) throw new Error(`no mail to verify ${who.username} by: register with { verify: false }`);
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
  await profileReady(client, options.verify !== false);
  return { client, accountId, username: who.username, email: who.email, password };
}

/**
 * Waits (up to 10 s) until profiles has handled the account's events: the profile exists (`user.registered`) and, for
 * a verified account, is marked verified (`user.verified`, a separate consumer that may come later), so the owner's
 * public page is shown. A test that acts right after registering then never races those events. One cheap read per
 * 50 ms, usually one or two in all.
 */
async function profileReady(client: ApiClient, verified: boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const res = await client.request('/api/profile');
    if (res.status === 200 && (!verified || (res.body as { isVerified?: boolean }).isVerified === true)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Tests set a tier directly until the payments service publishes membership changes. */
export async function setMembership(system: TestSystem, username: string, membership: string): Promise<void> {
  await system.sql('UPDATE profiles.profiles SET membership = $1 WHERE username = $2', [membership, username]);
}

/** What the create-staff command answered: its exit code and what it printed. */
export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the documented command that creates staff and print accounts (`npm run create-staff -- …`, that is
 * `node apps/identity/dist/src/create-account.js …`) against the system's database; `stdin` is piped to it.
 */
export async function runCreateStaff(system: TestSystem, args: string[], stdin = ''): Promise<CommandResult> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'apps/identity/dist/src/create-account.js'), ...args], {
    cwd: REPO_ROOT,
    env: { ...appProcessEnv(), ...system.envFor('identity') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(stdin);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

/** A staff or print account made by the command with this password, signed in (its profile awaited). */
export async function createStaffAccount(
  system: TestSystem,
  who: { email: string; role: 'staff' | 'print'; username: string; password?: string },
): Promise<TestOwner> {
  const password = who.password ?? 'a long enough passphrase';
  const result = await runCreateStaff(
    system,
    ['--email', who.email, '--role', who.role, '--username', who.username, '--password-stdin'],
    password,
  );
  if (result.code !== 0) throw new Error(`create-staff failed (${result.code}): ${result.stderr}`);
  const client = system.client();
  const signedIn = await client.request('/api/session', { body: { email: who.email, password } });
  if (signedIn.status !== 200) throw new Error(`sign-in as ${who.email} failed: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
  await profileReady(client, true);
  return { client, accountId: (signedIn.body as { user: { id: string } }).user.id, username: who.username, email: who.email, password };
}
