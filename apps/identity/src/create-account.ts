/**
 * Creates a staff or print account: the only way such accounts come to be (never by sign-up).
 *
 *   npm run create-staff -- --email thandi@digicard.co.za --role staff [--username thandi-staff]
 *        [--first-name Thandi] [--last-name Nkosi] [--password-stdin]
 *
 * Needs DATABASE_URL (identity's database; the migrations are applied first). With `--password-stdin` the password is
 * read from standard input (never from the command line, where `ps` and shell history would show it) and checked
 * like any other; without it the account gets an unusable password and a password-reset email is sent (through the
 * identity service's outbox, once it runs), whose link sets the password. The account is verified (staff typed the
 * address). Exit codes: 0 created, 64 bad arguments, 65 refused (email or username taken, weak password), 1 failure.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { emailAddress, Events, newPasswordField, usernameField } from '@digicard/contracts';
import { createDatabase, createPool, migrationsFolderOf, runMigrations } from '@digicard/db';
import { recordEvent } from '@digicard/messaging';
import { registeredEvent } from './accounts/account.mapping.js';
import { hashPassword, passwordProblem, useHashOptions } from './accounts/passwords.js';
import { ConfigSchema } from './config.js';
import { accounts, outbox } from './db/schema.js';

const ArgsSchema = z.object({
  email: emailAddress,
  role: z.enum(['staff', 'print'], { error: '--role must be staff or print' }),
  username: usernameField.optional(),
  firstName: z.string().trim().min(1).max(60).default('DigiCard'),
  lastName: z.string().trim().min(1).max(60).optional(),
  passwordStdin: z.boolean().default(false),
});

class Refused extends Error {}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** `staff-thandi` from `thandi.n@…`: the role, then the email's local part made into a username. */
const defaultUsername = (role: string, email: string): string =>
  `${role}-${(email.split('@')[0] ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')}`
    .slice(0, 30)
    .replace(/-+$/, '');

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      role: { type: 'string' },
      username: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      'password-stdin': { type: 'boolean' },
    },
    strict: true,
  });
  const parsed = ArgsSchema.safeParse({
    email: values.email,
    role: values.role,
    username: values.username,
    firstName: values['first-name'],
    lastName: values['last-name'],
    passwordStdin: values['password-stdin'],
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`--${issue.path.join('.') || 'arguments'}: ${issue.message}`);
    console.error(
      'usage: npm run create-staff -- --email <address> --role staff|print [--username <name>] [--first-name <name>] [--last-name <name>] [--password-stdin]',
    );
    return 64;
  }
  const args = parsed.data;
  const username = usernameField.safeParse(args.username ?? defaultUsername(args.role, args.email));
  if (!username.success) {
    console.error(`--username: ${username.error.issues[0]?.message ?? 'not a valid username'}`);
    return 64;
  }
  const config = ConfigSchema.parse(process.env);
  useHashOptions({ memoryCost: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST, parallelism: config.ARGON2_PARALLELISM });

  let passwordHash: string;
  if (args.passwordStdin) {
    const password = newPasswordField.safeParse(await readStdin());
    if (!password.success) throw new Refused(password.error.issues[0]?.message ?? 'Please enter a password.');
    const weak = passwordProblem(password.data, { username: username.data, email: args.email });
    if (weak) throw new Refused(weak);
    passwordHash = await hashPassword(password.data);
  } else {
    // Nobody knows this password: the reset link sets the real one.
    passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  }

  const pool = createPool(config.DATABASE_URL, 'identity-create-account', 2);
  try {
    await runMigrations(pool, 'identity', migrationsFolderOf(import.meta.url));
    const db = createDatabase(pool);
    const now = new Date();
    const account = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(accounts)
        .values({
          id: randomUUID(),
          username: username.data,
          email: args.email,
          emailNormalized: args.email.toLowerCase(),
          firstName: args.firstName,
          lastName: args.lastName ?? (args.role === 'staff' ? 'Staff' : 'Print'),
          passwordHash,
          role: args.role,
          isVerified: true,
          verifiedAt: now,
          // Not `emailProvedAt`: the operator's word proves no mailbox; the reset link sent to it will.
        })
        .onConflictDoNothing()
        .returning();
      if (!row) return null;
      await recordEvent(tx, outbox, Events.userRegistered, registeredEvent(row));
      await recordEvent(tx, outbox, Events.userVerified, { accountId: row.id, verifiedAt: now.toISOString() });
      if (!args.passwordStdin)
        await recordEvent(tx, outbox, Events.passwordResetRequested, { accountId: row.id, requestedAt: now.toISOString() });
      return row;
    });
    if (!account) throw new Refused('An account with this email or username already exists. Choose another, or change it in the database.');
    console.log(`Created ${args.role} account ${account.username} (${account.id}) for ${account.email}.`);
    console.log(
      args.passwordStdin
        ? 'It signs in with the password given.'
        : 'A password-reset email goes to that address: its link sets the password.',
    );
    return 0;
  } finally {
    await pool.end();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof Refused) {
      console.error(error.message);
      process.exit(65);
    }
    console.error('could not create the account:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
