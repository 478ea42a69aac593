import { QueueName } from './jobs.js';

/**
 * Redis is shared by the gateway (sessions, rate limits, analytics salts) and the services with queues (orders,
 * notifications, and profiles when a wallet is configured), so each connects as its own ACL user, allowed only its own key families under the deployment's
 * prefix (`REDIS_KEY_PREFIX` / `QUEUE_PREFIX`, `digicard` by default): orders cannot write a session, the gateway
 * cannot read an email job. The users are generated from here (compose's Redis command, the Kubernetes file
 * `k8s/base/redis-users.acl`); docs/security.md says the same, checked by a test.
 */
export type RedisUser = 'gateway' | 'orders' | 'notifications' | 'profiles';
export const RedisUsers: readonly RedisUser[] = ['gateway', 'orders', 'notifications', 'profiles'];

/** The first part after the prefix of every key each user writes: `<prefix>:<family>:...`. */
export const RedisKeyFamilies: Readonly<Record<RedisUser, readonly string[]>> = {
  gateway: ['session', 'account-sessions', 'role-changed-at', 'rl', 'analytics', 'sso-state'],
  orders: [QueueName.ProofRender],
  notifications: [QueueName.Email, QueueName.CrmWebhook],
  profiles: [QueueName.ApplePassPush, QueueName.GoogleWalletSync],
};

/**
 * The commands: everything on its own keys (BullMQ runs Lua scripts over them), none of the administrative or
 * dangerous ones (CONFIG, KEYS, FLUSHALL, DEBUG, ACL, ...), but INFO and CLIENT SETNAME, which BullMQ and ioredis use.
 */
const COMMANDS = ['+@all', '-@admin', '-@dangerous', '+info', '+client|setname', '+client|getname'];

/** The ACL rules of one user (after `user <name> on >password`). */
export function redisAclRules(user: RedisUser, prefix: string): string[] {
  return ['resetkeys', ...RedisKeyFamilies[user].map((family) => `~${prefix}:${family}:*`), 'resetchannels', ...COMMANDS];
}

/** The environment variable holding a Redis user's password in deployments: `REDIS_PASSWORD_<USER>`. */
export const redisPasswordVariable = (user: RedisUser): string => `REDIS_PASSWORD_${user.toUpperCase()}`;

/**
 * An ACL file for redis-server (`aclfile`): the `default` user off (no connection without a user), one user per
 * app. Passwords are given (tests) or written as `${REDIS_PASSWORD_<USER>}` for a start script to fill in.
 */
export function redisAclFile(options: { prefix?: string; passwords?: Partial<Record<RedisUser, string>>; admin?: string } = {}): string {
  const prefix = options.prefix ?? 'digicard';
  const lines = RedisUsers.map(
    (user) =>
      `user ${user} on >${options.passwords?.[user] ?? `\${${redisPasswordVariable(user)}}`} ${redisAclRules(user, prefix).join(' ')}`,
  );
  if (options.admin) lines.push(`user admin on >${options.admin} ~* &* +@all`);
  return ['user default off', ...lines, ''].join('\n');
}

/** What each Redis user may do, in words: the table docs/security.md carries between `redis-rights:start` and `:end`. */
export function redisRightsTable(prefix = 'digicard'): string {
  return [
    '| Redis user | keys it may read and write | commands |',
    '|---|---|---|',
    ...RedisUsers.map(
      (user) =>
        `| ${user} | ${RedisKeyFamilies[user].map((f) => `\`${prefix}:${f}:*\``).join(', ')} | all but @admin and @dangerous; INFO, CLIENT SETNAME/GETNAME |`,
    ),
    '| default | none: off | none |',
  ].join('\n');
}
