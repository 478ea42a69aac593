import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
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
 * change's time (ms), the role, the session key prefix, the marker's lifetime (ms), the account id, the records' MAC
 * key. Returns -1 for a change older than the latest applied, otherwise the number of sessions rewritten (each keeps
 * its expiry: KEEPTTL; one that ended meanwhile stays ended: XX). A record whose MAC does not hold is left alone (it
 * reads as signed out): a role change never signs a forged record. The session records hold strings and integers
 * below 2^53 only, which Redis's cjson writes back unchanged.
 */
const SET_ROLE_SCRIPT = `
local function bin(h) return (h:gsub('..', function(c) return string.char(tonumber(c, 16)) end)) end
local function hmac(key, msg)
  if #key > 64 then key = bin(redis.sha1hex(key)) end
  key = key .. string.rep(string.char(0), 64 - #key)
  local ipad = key:gsub('.', function(c) return string.char(bit.bxor(c:byte(), 54)) end)
  local opad = key:gsub('.', function(c) return string.char(bit.bxor(c:byte(), 92)) end)
  return redis.sha1hex(opad .. bin(redis.sha1hex(ipad .. msg)))
end
local latest = tonumber(redis.call('GET', KEYS[1]) or '0')
if latest > tonumber(ARGV[1]) then return -1 end
local changed = 0
for _, hash in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local key = ARGV[3] .. hash
  local raw = redis.call('GET', key)
  if raw and raw:sub(1, 3) == 'v1.' and raw:sub(44, 44) == '.' then
    local mac, json = raw:sub(4, 43), raw:sub(45)
    if hmac(ARGV[6], json) == mac then
      local data = cjson.decode(json)
      if data['accountId'] == ARGV[5] and ARGV[7] == '1' then
        if tonumber(data['createdAt']) < tonumber(ARGV[1]) then
          redis.call('DEL', key)
          redis.call('SREM', KEYS[2], hash)
          changed = changed + 1
        end
      elseif data['accountId'] == ARGV[5] and data['role'] ~= ARGV[2] then
        data['role'] = ARGV[2]
        local encoded = cjson.encode(data)
        redis.call('SET', key, 'v1.' .. hmac(ARGV[6], encoded) .. '.' .. encoded, 'KEEPTTL', 'XX')
        changed = changed + 1
      end
    end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[4])
return changed
`;

/**
 * A session record as stored: `v1.<HMAC-SHA1 of the JSON, hex>.<JSON>`, keyed with SESSION_SECRET, which only the
 * gateway holds. Whoever else can write to Redis cannot make or change a session (a staff role): a record whose MAC
 * does not hold reads as signed out. SHA-1 because the role-change script recomputes it inside Redis, whose Lua has
 * no other hash; HMAC-SHA1 is a sound MAC.
 */
export function sealSession(key: Buffer, data: SessionData): string {
  const json = JSON.stringify(data);
  return `v1.${createHmac('sha1', key).update(json).digest('hex')}.${json}`;
}

export function openSession(key: Buffer, raw: string): SessionData | null {
  if (!raw.startsWith('v1.') || raw[43] !== '.') return null;
  const mac = Buffer.from(raw.slice(3, 43), 'hex');
  const json = raw.slice(44);
  const expected = createHmac('sha1', key).update(json).digest();
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return null;
  try {
    return JSON.parse(json) as SessionData;
  } catch {
    return null;
  }
}

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
  private readonly macKey: Buffer;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    this.idleMs = config.SESSION_IDLE_MINUTES * 60_000;
    this.absoluteMs = config.SESSION_ABSOLUTE_HOURS * 3_600_000;
    // Without SESSION_SECRET (development, one gateway) a key of this process: sessions end when it restarts.
    this.macKey = config.SESSION_SECRET
      ? createHash('sha256').update(`digicard-session-record:${config.SESSION_SECRET}`).digest()
      : randomBytes(32);
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
        .set(this.key(id), sealSession(this.macKey, data), 'PX', this.idleMs)
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
    const data = openSession(this.macKey, raw);
    if (!data) return null;
    const now = Date.now();
    if (now - data.createdAt > this.absoluteMs) {
      await this.destroy(id, data.accountId);
      return null;
    }
    // Sliding idle timeout, written at most once a minute.
    if (now - data.lastSeenAt > 60_000) {
      data.lastSeenAt = now;
      const ttl = Math.min(this.idleMs, this.absoluteMs - (now - data.createdAt));
      await redisCall(() => this.redis.set(this.key(id), sealSession(this.macKey, data), 'PX', Math.max(1, ttl)));
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
   * live. With `signOut` (staff took a role away) the sessions signed in before the change end instead; one signed in
   * after it (identity gave it the new role) is kept, however late the change arrives. Returns the number of sessions
   * rewritten or ended, or -1 when the change was older than one already applied.
   */
  async setRoleFor(accountId: string, role: Role, changedAt: string, { signOut = false }: { signOut?: boolean } = {}): Promise<number> {
    const marker = `${this.config.REDIS_KEY_PREFIX}:role-changed-at:${accountId}`;
    const sessionPrefix = `${this.config.REDIS_KEY_PREFIX}:session:`;
    // One script, so two replicas handling two changes of one account at once cannot interleave.
    const result = await redisCall(() =>
      this.redis.eval(
        SET_ROLE_SCRIPT,
        2,
        marker,
        this.accountKey(accountId),
        String(Date.parse(changedAt)),
        role,
        sessionPrefix,
        String(this.absoluteMs),
        accountId,
        this.macKey,
        signOut ? '1' : '0',
      ),
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
