import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import {
  AllEvents,
  BusUsers,
  Events,
  Rpc,
  ServiceCalls,
  ServiceConsumes,
  ServiceNames,
  busPermissions,
  busRightsTable,
  durableName,
  inboxPrefixFor,
  natsAuthorizationConfig,
  NATS_MAX_PAYLOAD_BYTES,
  API_JSON_MAX_BYTES,
  ITN_MAX_BYTES,
  ownStreams,
  provisionedStreams,
  provisionerPermissions,
  STREAM_PROVISIONER,
  streamFor,
  type ServiceName,
} from '../src/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const sourcesOf = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourcesOf(path) : name.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });

describe('bus permissions generated from the contracts', () => {
  it('lets the gateway request every subject a browser may lead to, and never a service-only one', () => {
    const gateway = busPermissions('gateway');
    for (const rpc of Object.values(Rpc)) {
      assert.equal(gateway.publish.includes(rpc.subject), rpc.access !== 'service', rpc.subject);
    }
    assert.ok(!gateway.publish.includes(Rpc.issuePasswordResetToken.subject));
    // JetStream: its own dead-letter stream and its one durable consumer (role changes) on identity's stream, nothing else.
    const durable = 'gateway--identity-user-role-changed';
    const jetStream = gateway.publish.filter((s) => s.startsWith('$JS') || s.includes('>'));
    assert.deepEqual(
      jetStream.filter(
        (s) =>
          s !== '$JS.API.INFO' &&
          s !== '$JS.API.STREAM.INFO.EVENTS_IDENTITY' &&
          !s.includes('DEADLETTER_GATEWAY') &&
          !s.includes(`EVENTS_IDENTITY.${durable}`) &&
          s !== 'deadletter.gateway.>',
      ),
      [],
    );
    assert.ok(jetStream.includes(`$JS.API.CONSUMER.MSG.NEXT.EVENTS_IDENTITY.${durable}`));
    assert.ok(
      !jetStream.some((s) => /CONSUMER\.(CREATE|DURABLE\.CREATE|MSG\.NEXT)\.EVENTS_(?!IDENTITY)/.test(s)),
      'no consumer on another stream',
    );
    assert.ok(!gateway.subscribe.includes('identity.user.role-changed'), 'role changes come through the durable consumer, not core NATS');
    assert.equal(gateway.allowResponses, false);
  });

  it('lets each event be published by its owner only', () => {
    for (const event of AllEvents) {
      for (const user of BusUsers) {
        assert.equal(busPermissions(user).publish.includes(event.subject), user === event.owner, `${user} ${event.subject}`);
      }
    }
  });

  it('lets a service call another only where ServiceCalls says so, and every call in its sources is listed there', () => {
    for (const service of ServiceNames) {
      const dir = join(root, 'apps', service, 'src');
      let sources: string[] = [];
      try {
        sources = sourcesOf(dir);
      } catch {
        continue; // a service without sources in this tree
      }
      const used = new Set<string>();
      for (const text of sources) for (const m of text.matchAll(/\bRpc\.(\w+)/g)) used.add(m[1]!);
      const calls = [...used]
        .map((name) => (Rpc as Record<string, { owner: ServiceName; subject: string } | undefined>)[name])
        .filter((r): r is { owner: ServiceName; subject: string } => !!r && r.owner !== service);
      const allowed = busPermissions(service).publish;
      for (const call of calls)
        assert.ok(allowed.includes(call.subject), `${service} calls ${call.subject}: add it to ServiceCalls in bus.ts`);
      for (const listed of ServiceCalls[service] ?? []) assert.ok(allowed.includes(listed.subject));
    }
  });

  it('lets each user read its own replies only and run its own durable consumers only, and every consumer in its sources is listed', () => {
    for (const user of BusUsers) {
      const p = busPermissions(user);
      assert.ok(p.subscribe.includes(`${inboxPrefixFor(user)}.>`), user);
      assert.deepEqual(
        p.subscribe.filter((s) => s.startsWith('_INBOX')),
        [`${inboxPrefixFor(user)}.>`],
        `${user} reads another's replies`,
      );
      assert.ok(!p.subscribe.includes('>') && !p.publish.includes('>'));
      for (const s of p.publish.filter((s) => s.startsWith('$JS.'))) {
        // Only named streams and the user's own durables: no wildcard over consumers, acks or stream APIs.
        assert.ok(!/^\$JS\.(API\.(CONSUMER|STREAM)|ACK)\.(>|\*)/.test(s) && !s.includes('.*'), `${user}: ${s}`);
        const durable = /^\$JS\.(?:API\.CONSUMER\.(?:INFO|CREATE|DURABLE\.CREATE|MSG\.NEXT)|ACK)\.[A-Z_]+\.([^.]+)/.exec(s)?.[1];
        if (durable) assert.ok(durable.startsWith(`${user}--`), `${user} may use ${durable}`);
      }
      // Streams are the provisioner's: no app declares, changes, purges or deletes one, not even its own.
      assert.deepEqual(
        p.publish.filter((s) => /^\$JS\.API\.STREAM\.(?!INFO\.)/.test(s)),
        [],
        `${user} may configure a stream`,
      );
    }
    for (const service of ServiceNames) {
      const dir = join(root, 'apps', service, 'src');
      let sources: string[] = [];
      try {
        sources = sourcesOf(dir);
      } catch {
        continue;
      }
      const handled = new Set<string>();
      for (const text of sources) for (const m of text.matchAll(/@OnEvent\(Events\.(\w+)\)/g)) handled.add(m[1]!);
      const listed = (ServiceConsumes[service] ?? []).map((e) => e.subject);
      for (const name of handled) {
        const event = (Events as Record<string, { subject: string } | undefined>)[name]!;
        assert.ok(listed.includes(event.subject), `${service} handles ${event.subject}: add it to ServiceConsumes in bus.ts`);
      }
      assert.equal(listed.length, handled.size, `${service} lists events it does not handle`);
      for (const subject of listed) {
        const owner = AllEvents.find((e) => e.subject === subject)!.owner;
        assert.ok(
          busPermissions(service).publish.includes(`$JS.API.CONSUMER.MSG.NEXT.${streamFor(owner).name}.${durableName(service, subject)}`),
        );
      }
    }
  });

  it('lets the provisioner alone declare and change streams: every events and dead-letter stream, by name, and nothing else', () => {
    const p = provisionerPermissions();
    const streams = provisionedStreams();
    assert.deepEqual(
      streams.filter((s) => s.kind === 'events').map((s) => s.name),
      ServiceNames.filter((s) => streamFor(s).subjects.length > 0).map((s) => streamFor(s).name),
    );
    // A dead-letter stream for each app that consumes events, and for no other.
    assert.deepEqual(
      streams.filter((s) => s.kind === 'deadLetters').map((s) => s.owner),
      ['gateway', ...ServiceNames.filter((s) => (ServiceConsumes[s]?.length ?? 0) > 0)],
    );
    for (const { name } of streams)
      for (const api of ['INFO', 'CREATE', 'UPDATE']) assert.ok(p.publish.includes(`$JS.API.STREAM.${api}.${name}`), `${api} ${name}`);
    assert.deepEqual(
      p.publish.filter((s) => !/^\$JS\.API\.STREAM\.(INFO|CREATE|UPDATE)\.[A-Z_]+$/.test(s)),
      ['$JS.API.INFO'],
      'no event, request, consumer, delete or purge',
    );
    assert.deepEqual(p.subscribe, [`${inboxPrefixFor(STREAM_PROVISIONER)}.>`]);
    assert.equal(p.allowResponses, false);
    // Each app looks at the streams it writes into, and may wait for them.
    for (const user of BusUsers)
      for (const own of ownStreams(user))
        assert.ok(busPermissions(user).publish.includes(`$JS.API.STREAM.INFO.${own.name}`), `${user} ${own.name}`);
  });

  it('is what docs/security.md says each bus user may do', () => {
    const doc = readFileSync(join(root, 'docs', 'security.md'), 'utf8');
    const block = /<!-- bus-rights:start -->\n([\s\S]*?)\n<!-- bus-rights:end -->/.exec(doc)?.[1];
    assert.equal(block, busRightsTable(), 'docs/security.md is out of date: paste busRightsTable() between the bus-rights markers');
  });

  it('renders a nats-server authorization block with one user per app, passwords from the environment by default', () => {
    const config = natsAuthorizationConfig();
    for (const user of [...BusUsers, STREAM_PROVISIONER])
      assert.match(config, new RegExp(`user: "${user}", password: \\$NATS_PASSWORD_${user.toUpperCase()}`));
    assert.ok(!config.includes('no_auth_user'));
  });

  it('sets max_payload explicitly, and every gateway body limit fits in one message with room for the envelope', () => {
    assert.match(natsAuthorizationConfig(), new RegExp(`^max_payload: ${NATS_MAX_PAYLOAD_BYTES}$`, 'm'));
    const envelope = 4096; // meta, ids and field names around a body
    // A JSON body grows at most six-fold inside the request's JSON (a control character becomes \u00XX).
    assert.ok(API_JSON_MAX_BYTES * 6 + envelope < NATS_MAX_PAYLOAD_BYTES);
    assert.ok(JSON.stringify('\u0001'.repeat(10)).length <= 6 * 10 + 2);
    // An ITN's raw text (form-encoded: printable ASCII, at most a quote or backslash doubled) and a stored image.
    assert.ok(ITN_MAX_BYTES * 6 + envelope < NATS_MAX_PAYLOAD_BYTES);
    assert.ok(1_000_000 + envelope < NATS_MAX_PAYLOAD_BYTES, 'profiles.image.store carries at most 1,000,000 base64 characters');
  });
});
