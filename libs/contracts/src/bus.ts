import { AllEvents, Events, deadLetterStreamFor, durableName, streamFor, type EventDefinition } from './events.js';
import { Notices, Rpc, healthSubject, type RpcAccess, type RpcDefinition } from './rpc.js';
import { ServiceNames, type ServiceName } from './services.js';
import type { z } from 'zod';

/**
 * NATS is not one trust zone: each app connects as its own NATS user, allowed to publish and subscribe only what
 * the contracts say it does. The permissions are generated from the contracts (who answers each RPC and with which
 * access, who publishes each event), so a new RPC or event is covered the day it is declared.
 */
export type BusUser = 'gateway' | ServiceName;
export const BusUsers: readonly BusUser[] = ['gateway', ...ServiceNames];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any definition, whatever its schemas
type AnyRpc = RpcDefinition<any, any, RpcAccess>;

/**
 * The requests a service makes of another service (the gateway's follow from the access rules: every subject that is
 * not `service`-only). Add a line here when a service starts calling another: its NATS user may then publish it. A
 * test reads each service's sources and fails when one calls a subject that is not listed.
 */
export const ServiceCalls: Readonly<Partial<Record<ServiceName, readonly AnyRpc[]>>> = {
  // Email links and a buyer's address (identity); the address an account proved, for its mail log in the data export
  // (identity); the owner's tier for CRM webhooks (profiles knows it: the membership, a partner's choice, a
  // rep's business); the profile and photo whose vCard Exchange Contact sends (profiles).
  notifications: [
    Rpc.accountById,
    Rpc.provedEmail,
    Rpc.issueVerificationToken,
    Rpc.issuePasswordResetToken,
    Rpc.issueWelcomeToken,
    Rpc.issueEmailChangeToken,
    Rpc.profileOfAccount,
    Rpc.getPublicProfile,
    Rpc.getMedia,
  ],
  payments: [Rpc.orderForPayment, Rpc.getAccount],
  // Print proofs: the buyer's profile and logo; the caller's role (print and staff consoles); the data export: the
  // address the account proved (enquiries under it).
  orders: [Rpc.profileOfAccount, Rpc.mediaOfAccount, Rpc.getAccount, Rpc.provedEmail],
  // A leader's reps: their accounts live in identity; the leader's tier in profiles.
  // SCIM provisioning makes, enables and disables rep accounts for the leader whose token it was.
  teams: [
    Rpc.createRepAccounts,
    Rpc.provisionRepAccounts,
    Rpc.findRepAccounts,
    Rpc.updateRepAccount,
    Rpc.enableRepAccount,
    Rpc.disableRepAccount,
    Rpc.getOwnProfile,
  ],
};

/** The events the gateway listens to on core NATS (to drop cached public pages: a page missed is dropped by its TTL). */
export const GatewayListensTo: readonly EventDefinition<z.ZodType>[] = [Events.profileUpdated, Events.profileDeleted];

/**
 * The events the gateway consumes durably, through JetStream: a role change must reach the sessions even when it is
 * published while no gateway is up or Redis is away (a staff member demoted keeps no staff session).
 */
export const GatewayConsumes: readonly EventDefinition<z.ZodType>[] = [Events.roleChanged];

/**
 * The events each service consumes durably (its `@OnEvent` handlers): one durable consumer per event, named
 * `durableName(service, subject)`, on the owner's stream. Its NATS user may run those consumers and ack their
 * messages, and nothing else of JetStream's consumers. A test reads each service's sources and fails when one
 * handles an event that is not listed.
 */
export const ServiceConsumes: Readonly<Partial<Record<ServiceName, readonly EventDefinition<z.ZodType>[]>>> = {
  identity: [Events.membershipChanged],
  profiles: [
    Events.teamMemberAdded,
    Events.teamMemberUpdated,
    Events.teamMemberRemoved,
    Events.teamMemberSuspended,
    Events.teamMemberReinstated,
    Events.userRegistered,
    Events.userChanged,
    Events.userVerified,
    Events.userDeleted,
    Events.membershipChanged,
    Events.roleChanged,
    Events.cardsAssigned,
    // Its own: a change of what an Apple Wallet pass shows is pushed to the devices holding it.
    Events.profileUpdated,
  ],
  orders: [
    Events.paymentCompleted,
    Events.userRegistered,
    Events.userDeleted,
    Events.orderPaid,
    Events.profileUpdated,
    Events.teamMemberAdded,
    Events.teamMemberRemoved,
  ],
  notifications: [
    Events.userDeleted,
    Events.leadCaptured,
    Events.emailChangeRequested,
    Events.emailChanged,
    Events.emailChangeAttempted,
    Events.enquiryReceived,
    Events.userRegistered,
    Events.verificationRequested,
    Events.passwordResetRequested,
    Events.teamMemberAdded,
    Events.walletPassOffered,
    Events.orderPaid,
    Events.orderStateChanged,
    Events.paymentCompleted,
    Events.subscriptionCancelled,
    Events.registrationAttempted,
    Events.membershipChanged,
    Events.paymentFailed,
  ],
};

/**
 * The prefix of a bus user's reply subjects (the client's `inboxPrefix`): `_INBOX_<user>`. Each user may subscribe
 * to its own replies only, so no app reads the answers another app asked for (exports, tokens, proofs).
 */
export const inboxPrefixFor = (user: string): string => `_INBOX_${user}`;

/**
 * JetStream rights of a consuming app: look at the streams it reads, and for each event it consumes, create, look
 * at, pull from and ack its own durable consumer only (never another app's, never an ephemeral one).
 */
function consumerRights(consumer: BusUser, events: readonly EventDefinition<z.ZodType>[]): string[] {
  return events.flatMap((event) => {
    const stream = streamFor(event.owner).name;
    const durable = durableName(consumer, event.subject);
    return [
      `$JS.API.STREAM.INFO.${stream}`,
      `$JS.API.CONSUMER.INFO.${stream}.${durable}`,
      `$JS.API.CONSUMER.CREATE.${stream}.${durable}`,
      `$JS.API.CONSUMER.CREATE.${stream}.${durable}.${event.subject}`,
      `$JS.API.CONSUMER.DURABLE.CREATE.${stream}.${durable}`,
      `$JS.API.CONSUMER.MSG.NEXT.${stream}.${durable}`,
      `$JS.ACK.${stream}.${durable}.>`,
    ];
  });
}

/** The apps that consume events durably: each has a dead-letter stream of its own. */
const consumers = (): BusUser[] =>
  BusUsers.filter((user) => (user === 'gateway' ? GatewayConsumes.length > 0 : (ServiceConsumes[user]?.length ?? 0) > 0));

/**
 * The NATS user of the one-shot stream provisioning step (`nats-streams`, run before the apps start, as `db-roles` is
 * for PostgreSQL): the only user that may declare or change a stream. No app holds that right, so an app whose code
 * is taken over can neither make its stream source, mirror or republish another's, nor change how long events are kept.
 */
export const STREAM_PROVISIONER = 'provisioner' as const;

export interface ProvisionedStream {
  name: string;
  subjects: string[];
  /** `events`: an owner's events; `deadLetters`: what a consuming app gave up on. */
  kind: 'events' | 'deadLetters';
  /** The app whose stream it is (the only one that publishes into it). */
  owner: BusUser;
}

/**
 * Every stream of the system, declared by the provisioner: each publishing service's events stream, and each
 * consuming app's dead-letter stream.
 */
export function provisionedStreams(): ProvisionedStream[] {
  const events = ServiceNames.map((owner) => ({ ...streamFor(owner), owner }))
    .filter((s) => s.subjects.length > 0)
    .map(({ name, subjects, owner }): ProvisionedStream => ({ name, subjects, kind: 'events', owner }));
  const deadLetters = consumers().map((owner): ProvisionedStream => {
    const { name, subjects } = deadLetterStreamFor(owner);
    return { name, subjects, kind: 'deadLetters', owner };
  });
  return [...events, ...deadLetters];
}

/** The streams an app writes into (its events, its dead letters): it may look at them and waits until they exist. */
export const ownStreams = (user: BusUser): ProvisionedStream[] => provisionedStreams().filter((s) => s.owner === user);

/** An app's own dead-letter stream: look at it, write to it (never declare or change it: the provisioner does). */
function deadLetterRights(user: BusUser): string[] {
  if (!consumers().includes(user)) return [];
  const deadLetters = deadLetterStreamFor(user);
  return [`$JS.API.STREAM.INFO.${deadLetters.name}`, ...deadLetters.subjects];
}

/** The provisioner's rights: look at, declare and change the named streams, and nothing else on the bus. */
export function provisionerPermissions(): BusPermissions {
  return {
    publish: [
      '$JS.API.INFO',
      ...provisionedStreams().flatMap(({ name }) => [
        `$JS.API.STREAM.INFO.${name}`,
        `$JS.API.STREAM.CREATE.${name}`,
        `$JS.API.STREAM.UPDATE.${name}`,
      ]),
    ],
    subscribe: [`${inboxPrefixFor(STREAM_PROVISIONER)}.>`],
    allowResponses: false,
  };
}

/** The gateway's JetStream rights: its own dead-letter stream, and one durable consumer per event it consumes. */
function gatewayJetStream(): string[] {
  return ['$JS.API.INFO', ...deadLetterRights('gateway'), ...consumerRights('gateway', GatewayConsumes)];
}

export interface BusPermissions {
  publish: string[];
  subscribe: string[];
  /** May answer the requests it receives (publish to their reply subject, and only that). */
  allowResponses: boolean;
}

const allRpcs = (): AnyRpc[] => Object.values(Rpc) as AnyRpc[];

/** What one app's NATS user may publish and subscribe to. */
export function busPermissions(user: BusUser): BusPermissions {
  if (user === 'gateway') {
    return {
      publish: unique([
        // Every subject a browser's request may lead to; never a `service` one (token issuing, orders for payment).
        ...allRpcs()
          .filter((r) => r.access !== 'service')
          .map((r) => r.subject),
        ...Object.values(Notices).map((n) => n.subject),
        ...ServiceNames.map(healthSubject),
        ...gatewayJetStream(),
      ]),
      subscribe: [`${inboxPrefixFor('gateway')}.>`, ...GatewayListensTo.map((e) => e.subject)],
      allowResponses: false,
    };
  }
  const events = streamFor(user);
  return {
    publish: unique([
      // Its own events (the outbox relay).
      ...events.subjects,
      // The requests it makes of other services.
      ...(ServiceCalls[user] ?? []).map((r) => r.subject),
      // JetStream: look at its own events stream (never declare or change it), its dead letters, its own durable consumers.
      '$JS.API.INFO',
      ...(events.subjects.length > 0 ? [`$JS.API.STREAM.INFO.${events.name}`] : []),
      ...deadLetterRights(user),
      ...consumerRights(user, ServiceConsumes[user] ?? []),
    ]),
    // Its own request subjects (RPCs, notices, health) and the replies to what it asked.
    subscribe: [`${user}.>`, `${inboxPrefixFor(user)}.>`],
    allowResponses: true,
  };
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** The environment variable holding a bus user's password in deployments (compose, k8s): `NATS_PASSWORD_<USER>`. */
export const natsPasswordVariable = (user: BusUser | typeof STREAM_PROVISIONER): string => `NATS_PASSWORD_${user.toUpperCase()}`;

/**
 * The `authorization` block of nats-server's configuration, one user per app and the stream provisioner
 * (`STREAM_PROVISIONER`). Passwords are given (tests, the
 * development start script) or referenced from the server's environment (`$NATS_PASSWORD_GATEWAY`, ...). `admin`
 * adds a user with every right (the operator's tools, tests), and makes it the user of a connection without
 * credentials when `noAuthAdmin` is set (tests only).
 */
/**
 * The largest message on the bus, set in the NATS server's configuration (`max_payload`) rather than left to its
 * default: every request, reply and event must fit. The gateway's body limits (JSON 100 KB, an image re-encoded to at
 * most 1,000,000 base64 characters, an ITN 16 KB) stay below it with room for the envelope; lists are paged so that
 * no reply grows with an account's data (`PAGE_MAX`).
 */
export const NATS_MAX_PAYLOAD_BYTES = 1024 * 1024;

/**
 * The gateway's limit on a JSON body. Passed on inside a request's JSON, a body can grow at most six-fold (a control
 * character becomes `\u00XX`), which still fits in one bus message (a test checks it).
 */
export const API_JSON_MAX_BYTES = 100 * 1024;

export function natsAuthorizationConfig(
  options: {
    passwords?: Partial<Record<BusUser | typeof STREAM_PROVISIONER, string>>;
    admin?: { password: string; noAuthAdmin?: boolean };
  } = {},
): string {
  const q = (s: string) => JSON.stringify(s);
  const list = (subjects: string[]) => `[${subjects.map(q).join(', ')}]`;
  const users = [...BusUsers, STREAM_PROVISIONER].map((user) => {
    const p = user === STREAM_PROVISIONER ? provisionerPermissions() : busPermissions(user);
    const password = options.passwords?.[user] !== undefined ? q(options.passwords[user]) : `$${natsPasswordVariable(user)}`;
    const responses = p.allowResponses ? ', allow_responses: true' : '';
    return `    { user: ${q(user)}, password: ${password}, permissions: { publish: { allow: ${list(p.publish)} }, subscribe: { allow: ${list(p.subscribe)} }${responses} } }`;
  });
  if (options.admin) users.push(`    { user: "admin", password: ${q(options.admin.password)} }`);
  const noAuth = options.admin?.noAuthAdmin ? '\nno_auth_user: "admin"' : '';
  return `# Generated from libs/contracts (bus.ts) by tools/dev/nats-config.mjs: do not edit by hand.\nmax_payload: ${NATS_MAX_PAYLOAD_BYTES}\nauthorization {\n  users = [\n${users.join('\n')}\n  ]\n}${noAuth}\n`;
}

/** Every event subject of every service (for checks that each is published by its owner only). */
export const allEventSubjects = (): string[] => AllEvents.map((e) => e.subject);

/**
 * What each bus user may do, in words, derived from the same permissions as the server's configuration: the table
 * docs/security.md carries between `bus-rights:start` and `bus-rights:end` (a test compares the two).
 */
export function busRightsTable(): string {
  const code = (subjects: readonly string[]) => (subjects.length === 0 ? 'none' : subjects.map((s) => `\`${s}\``).join(', '));
  const rows = BusUsers.map((user) => {
    const p = busPermissions(user);
    const events = AllEvents.filter((e) => p.publish.includes(e.subject)).map((e) => e.subject);
    const rpcs = allRpcs().filter((r) => p.publish.includes(r.subject));
    const requests =
      user === 'gateway'
        ? `every RPC not \`service\`-only (${rpcs.length}), the notices, the health checks`
        : code(rpcs.map((r) => r.subject));
    const streams = p.publish.filter((s) => s.startsWith('$JS.API.STREAM.INFO.')).map((s) => s.slice('$JS.API.STREAM.INFO.'.length));
    const durables = unique(
      p.publish.filter((s) => s.startsWith('$JS.API.CONSUMER.MSG.NEXT.')).map((s) => s.slice('$JS.API.CONSUMER.MSG.NEXT.'.length)),
    );
    const listens = p.subscribe.filter((s) => !s.startsWith('_INBOX'));
    const inbox = p.subscribe.filter((s) => s.startsWith('_INBOX'));
    return `| ${user} | ${code(events)} | ${requests} | ${code(listens)}${p.allowResponses ? ', answers them' : ''} | ${code(inbox)} | looks at ${code(streams)}; declares none | ${durables.length} durable consumer${durables.length === 1 ? '' : 's'}: ${code(durables)}, and acks their messages only |`;
  });
  const provisioner = provisionerPermissions();
  const declared = provisioner.publish
    .filter((s) => s.startsWith('$JS.API.STREAM.CREATE.'))
    .map((s) => s.slice('$JS.API.STREAM.CREATE.'.length));
  rows.push(
    `| ${STREAM_PROVISIONER} (the \`nats-streams\` step only) | none | none | none | ${code(provisioner.subscribe)} | declares, looks at and changes ${code(declared)} | none |`,
  );
  return [
    '| NATS user | publishes events | requests | receives | replies | streams | JetStream consumers |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
