import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Role } from '@digicard/contracts';
import { CONFIG } from '@digicard/server';
import type { Config } from '../config.js';
import { redisCall } from '../redis/redis-call.js';
import { REDIS } from '../tokens.js';

export interface SessionData {
  accountId: string;
  role: Role;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface Session {
  id: string;
  data: SessionData;
}

/**
 * `setRoleFor` in Redis, atomically. KEYS: the account's latest-change marker, its set of session hashes. ARGV: the
 * change's time (ms), the role, the session key prefix, the marker's lifetime (ms), the account id. Returns -1 for a
 * change older than the latest applied, otherwise the number of sessions rewritten (each keeps its expiry: KEEPTTL;
 * one that ended meanwhile stays ended: XX). The session records hold strings and integers below 2^53 only, which
 * Redis's cjson writes back unchanged.
 */
const SET_ROLE_SCRIPT = `
local latest = tonumber(redis.call('GET', KEYS[1]) or '0')
if latest > tonumber(ARGV[1]) then return -1 end
local changed = 0
for _, hash in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local key = ARGV[3] .. hash
  local raw = redis.call('GET', key)
  if raw then
    local data = cjson.decode(raw)
    if data['accountId'] == ARGV[5] and data['role'] ~= ARGV[2] then
      data['role'] = ARGV[2]
      redis.call('SET', key, cjson.encode(data), 'KEEPTTL', 'XX')
      changed = changed + 1
    end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[4])
return changed
`;

/** Only a hash of the id is a key: a copy of Redis does not hand out live sessions. */
const keyHash = (id: string): string => createHash('sha256').update(id).digest('base64url');

/**
 * Server-side sessions in Redis. The id is 256 random bits, held by the browser in an HttpOnly cookie; signing
 * out deletes the record, so a copied cookie stops working at once. A session ends after SESSION_IDLE_MINUTES
 * unused or SESSION_ABSOLUTE_HOURS after sign-in, whichever comes first. While Redis is unavailable every method
 * rejects with a RedisUnavailableError (answered 503).
 */
@Injectable()
export class SessionStore {
  private readonly idleMs: number;
  private readonly absoluteMs: number;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    this.idleMs = config.SESSION_IDLE_MINUTES * 60_000;
    this.absoluteMs = config.SESSION_ABSOLUTE_HOURS * 3_600_000;
  }

  private key(id: string): string {
    return `${this.config.REDIS_KEY_PREFIX}:session:${keyHash(id)}`;
  }

  private accountKey(accountId: string): string {
    return `${this.config.REDIS_KEY_PREFIX}:account-sessions:${accountId}`;
  }

  async create(accountId: string, role: Role): Promise<Session> {
    const id = randomBytes(32).toString('base64url');
    const now = Date.now();
    const data: SessionData = { accountId, role, csrfToken: randomBytes(32).toString('base64url'), createdAt: now, lastSeenAt: now };
    await redisCall(() =>
      this.redis
        .multi()
        .set(this.key(id), JSON.stringify(data), 'PX', this.idleMs)
        .sadd(this.accountKey(accountId), keyHash(id))
        .pexpire(this.accountKey(accountId), this.absoluteMs)
        .exec(),
    );
    return { id, data };
  }

  async get(id: string): Promise<Session | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const raw = await redisCall(() => this.redis.get(this.key(id)));
    if (!raw) return null;
    const data = JSON.parse(raw) as SessionData;
    const now = Date.now();
    if (now - data.createdAt > this.absoluteMs) {
      await this.destroy(id, data.accountId);
      return null;
    }
    // Sliding idle timeout, written at most once a minute.
    if (now - data.lastSeenAt > 60_000) {
      data.lastSeenAt = now;
      const ttl = Math.min(this.idleMs, this.absoluteMs - (now - data.createdAt));
      await redisCall(() => this.redis.set(this.key(id), JSON.stringify(data), 'PX', Math.max(1, ttl)));
    }
    return { id, data };
  }

  async destroy(id: string, accountId?: string): Promise<void> {
    const multi = this.redis.multi().del(this.key(id));
    if (accountId) multi.srem(this.accountKey(accountId), keyHash(id));
    await redisCall(() => multi.exec());
  }

  /**
   * Gives every live session of an account its new role (identity changed it: staff, or a DigiPlatinum subscription
   * that started or ended), so the change holds from the next request instead of the next sign-in. Each record keeps
   * its expiry; a session that ended meanwhile stays ended. Setting the same role twice changes nothing.
   *
   * `changedAt` orders the changes: one older than the latest applied to the account is skipped (a change redelivered
   * after a newer one must not bring the older role back). The time of the latest is kept as long as a session can
   * live. Returns the number of sessions rewritten, or -1 when the change was older than one already applied.
   */
  async setRoleFor(accountId: string, role: Role, changedAt: string): Promise<number> {
    const marker = `${this.config.REDIS_KEY_PREFIX}:role-changed-at:${accountId}`;
    const sessionPrefix = `${this.config.REDIS_KEY_PREFIX}:session:`;
    // One script, so two replicas handling two changes of one account at once cannot interleave.
    const result = await redisCall(() =>
      this.redis.eval(SET_ROLE_SCRIPT, 2, marker, this.accountKey(accountId), String(Date.parse(changedAt)), role, sessionPrefix, String(this.absoluteMs), accountId),
    );
    return Number(result);
  }

  /** Ends every session of an account (a password reset), but the one given. */
  async destroyAllFor(accountId: string, exceptId?: string): Promise<number> {
    const hashes = await redisCall(() => this.redis.smembers(this.accountKey(accountId)));
    const keep = exceptId ? keyHash(exceptId) : null;
    const doomed = hashes.filter((h) => h !== keep);
    if (doomed.length === 0) return 0;
    await redisCall(() =>
      this.redis
        .multi()
        .del(...doomed.map((h) => `${this.config.REDIS_KEY_PREFIX}:session:${h}`))
        .srem(this.accountKey(accountId), ...doomed)
        .exec(),
    );
    return doomed.length;
  }
}
