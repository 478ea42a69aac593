import { z } from 'zod';
import { NUL_CHARACTER_MESSAGE, nulFieldErrors, parsePhone } from './fields.js';
import { pageOf } from './paging.js';

/**
 * SCIM 2.0 provisioning for teams (issue 27 item 2; RFC 7643 resources, RFC 7644 protocol): a company's identity
 * provider (Entra ID, Okta, Google) creates, changes, deactivates and deletes a team's reps at `/scim/v2`, with a
 * bearer token the leader makes in the Teams section. The gateway holds the token only long enough to hash it; the
 * teams service keeps the SHA-256 of it and the data (docs/decisions/0014-scim-provisioning.md).
 */
export const ScimSchemas = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

export const SCIM_MEDIA_TYPE = 'application/scim+json';
/** Where the SCIM service is served (the base URL a provider is given is `{PUBLIC_URL}/scim/v2`). */
export const SCIM_BASE_PATH = '/scim/v2';
/** The most users one list answers (`count` above it is lowered to it, RFC 7644 3.4.2.4). */
export const SCIM_MAX_COUNT = 100;
/** A token: `dcscim_` and 32 random bytes in base64url (the prefix lets secret scanners recognise a leaked one). */
export const SCIM_TOKEN_PREFIX = 'dcscim_';
/** The SHA-256 of a token, base64url without padding: what crosses the bus and rests in the teams schema. */
export const ScimTokenHashSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

export const ScimMessages = {
  noToken: 'Please send the team’s SCIM token as Authorization: Bearer <token>.',
  badToken: 'This SCIM token is not valid. Please make a new one in the Teams section.',
  noSuchUser: 'No such user in this team.',
  userNameTaken: 'A user with this userName already exists.',
  userNameRequired: 'userName is required and must be an email address.',
  nameRequired: 'name.givenName and name.familyName are required (or a displayName to take them from).',
  badFilter: 'Only filters of the form userName eq "value" (or externalId, id) are supported.',
  badJson: 'The request body is not valid JSON.',
  badPatch: 'Each operation needs an op of add, replace or remove, and a value for add and replace.',
  badValue: 'A value in the request is not valid.',
  badActive: 'active must be true or false.',
  cannotReactivate: 'This user was removed too long ago to be reactivated. Please create them again.',
  tooMany: 'Too many requests. Please slow down.',
  tokenMade: 'SCIM token made. Copy it now: it is not shown again.',
  tokenRevoked: 'SCIM token revoked. Your identity provider can no longer provision reps.',
  noTokenYet: 'There is no SCIM token for this team.',
} as const;

/** SCIM's own error answer (RFC 7644 3.12): the status as a string, and for 400/409 a `scimType`. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';
export const ScimErrorSchema = z
  .object({
    schemas: z.tuple([z.literal(ScimSchemas.error)]),
    status: z.string(),
    scimType: z.string().optional(),
    detail: z.string().optional(),
  })
  .meta({ id: 'ScimError' });
export type ScimError = z.infer<typeof ScimErrorSchema>;

/**
 * A SCIM request body refused for a NUL character anywhere in it (PostgreSQL cannot store one): the rule every other
 * body meets in `parseBody` (`nulFieldErrors`), in SCIM's error form, naming the first field that holds one.
 */
export function refuseScimNul(body: unknown): void {
  const [field] = Object.keys(nulFieldErrors(body));
  if (field !== undefined)
    throw new ScimRequestError(400, 'invalidValue', `${field === '_form' ? 'body' : field}: ${NUL_CHARACTER_MESSAGE}`);
}

export function scimError(status: number, detail: string, scimType?: ScimType): ScimError {
  return { schemas: [ScimSchemas.error], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

/**
 * What a SCIM user maps to (RFC 7643 4.1): userName is the rep's email (their sign-in and the address on their card;
 * `emails` answers it, and an incoming `emails` is not kept apart from it); the DigiCard username is made from it.
 */
export const ScimUserFieldsSchema = z.object({
  userName: z.string().trim().toLowerCase().max(254).pipe(z.email(ScimMessages.userNameRequired)),
  externalId: z.string().trim().max(256).nullable(),
  givenName: z.string().trim().min(1, ScimMessages.nameRequired).max(60),
  familyName: z.string().trim().min(1, ScimMessages.nameRequired).max(60),
  title: z.string().trim().max(120).nullable(),
  /** A South African number as 10 digits, or '' (a number that is not South African is not kept): `scimPhone`'s form. */
  tel: z.string().refine((tel) => scimPhone(tel) === tel, 'A South African phone number as 10 digits, or nothing.'),
  active: z.boolean(),
});
export type ScimUserFields = z.infer<typeof ScimUserFieldsSchema>;

/** A user as the teams service answers it; the gateway adds the resource's schemas and meta. */
export const ScimUserRecordSchema = ScimUserFieldsSchema.extend({
  id: z.uuid(),
  created: z.iso.datetime(),
  lastModified: z.iso.datetime(),
});
export type ScimUserRecord = z.infer<typeof ScimUserRecordSchema>;

/** A SCIM User resource as the gateway answers it. */
export const ScimUserResourceSchema = z
  .object({
    schemas: z.array(z.string()),
    id: z.uuid(),
    externalId: z.string().optional(),
    userName: z.string(),
    name: z.object({ givenName: z.string(), familyName: z.string(), formatted: z.string() }),
    displayName: z.string(),
    title: z.string().optional(),
    active: z.boolean(),
    emails: z.array(z.object({ value: z.string(), type: z.string(), primary: z.boolean() })),
    phoneNumbers: z.array(z.object({ value: z.string(), type: z.string(), primary: z.boolean() })).optional(),
    meta: z.object({
      resourceType: z.literal('User'),
      created: z.string(),
      lastModified: z.string(),
      location: z.string(),
      version: z.string(),
    }),
  })
  .meta({ id: 'ScimUser' });
export type ScimUserResource = z.infer<typeof ScimUserResourceSchema>;

export const ScimListResponseSchema = z
  .object({
    schemas: z.tuple([z.literal(ScimSchemas.listResponse)]),
    totalResults: z.number().int(),
    startIndex: z.number().int(),
    itemsPerPage: z.number().int(),
    Resources: z.array(ScimUserResourceSchema),
  })
  .meta({ id: 'ScimListResponse' });

export function toScimUser(record: ScimUserRecord, baseUrl: string): ScimUserResource {
  return {
    schemas: [ScimSchemas.user],
    id: record.id,
    ...(record.externalId ? { externalId: record.externalId } : {}),
    userName: record.userName,
    name: { givenName: record.givenName, familyName: record.familyName, formatted: `${record.givenName} ${record.familyName}` },
    displayName: `${record.givenName} ${record.familyName}`,
    ...(record.title ? { title: record.title } : {}),
    active: record.active,
    emails: [{ value: record.userName, type: 'work', primary: true }],
    ...(record.tel ? { phoneNumbers: [{ value: record.tel, type: 'work', primary: true }] } : {}),
    meta: {
      resourceType: 'User',
      created: record.created,
      lastModified: record.lastModified,
      location: `${baseUrl}/Users/${record.id}`,
      version: `W/"${Date.parse(record.lastModified).toString(36)}"`,
    },
  };
}

/** A SCIM refusal the gateway or the teams service raises while reading a request: answered in SCIM's format. */
export class ScimRequestError extends Error {
  constructor(
    readonly status: number,
    readonly scimType: ScimType | undefined,
    message: string,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `true`/`false` as JSON or as the strings Entra ID sends ("True", "False"). */
function booleanOf(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw new ScimRequestError(400, 'invalidValue', ScimMessages.badActive);
}

/** The primary (else the first, else the work) value of a multi-valued attribute such as emails. */
function primaryValue(list: unknown): string | null {
  if (!Array.isArray(list)) return null;
  const items = list.filter(isObject).filter((i) => typeof i['value'] === 'string');
  const chosen = items.find((i) => i['primary'] === true || i['primary'] === 'true') ?? items.find((i) => i['type'] === 'work') ?? items[0];
  return chosen ? (chosen['value'] as string) : null;
}

/** A phone number as the rep's card keeps it: a South African number's 10 digits, or '' for anything else. */
export function scimPhone(value: string | null): string {
  if (!value) return '';
  const parsed = parsePhone(value);
  return parsed?.country === 'ZA' && parsed.nationalNumber.length === 9 ? `0${parsed.nationalNumber}` : '';
}

/** Splits a display name into given and family names (the last word is the family name). */
function namesOf(displayName: unknown): { givenName: string; familyName: string } | null {
  if (typeof displayName !== 'string') return null;
  const words = displayName.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return null;
  return { givenName: words.slice(0, -1).join(' '), familyName: words.at(-1)! };
}

function parseFields(candidate: Json): ScimUserFields {
  const parsed = ScimUserFieldsSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ScimRequestError(400, 'invalidValue', `${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  return parsed.data;
}

/** A POST or PUT body (a whole User resource) as the fields DigiCard keeps; 400 invalidValue/invalidSyntax otherwise. */
export function scimUserFromResource(body: unknown): ScimUserFields {
  if (!isObject(body)) throw new ScimRequestError(400, 'invalidSyntax', 'The body must be a SCIM User resource (a JSON object).');
  const name = isObject(body['name']) ? body['name'] : {};
  const fromDisplay = namesOf(body['displayName']);
  const userName = typeof body['userName'] === 'string' ? body['userName'] : '';
  return parseFields({
    userName,
    externalId: typeof body['externalId'] === 'string' ? body['externalId'] : null,
    givenName: typeof name['givenName'] === 'string' ? name['givenName'] : (fromDisplay?.givenName ?? ''),
    familyName: typeof name['familyName'] === 'string' ? name['familyName'] : (fromDisplay?.familyName ?? ''),
    title: typeof body['title'] === 'string' && body['title'].trim() ? body['title'] : null,
    tel: scimPhone(primaryValue(body['phoneNumbers'])),
    active: body['active'] === undefined ? true : booleanOf(body['active']),
  });
}

/**
 * A PATCH body (RFC 7644 3.5.2) applied to the user as stored. Both forms the providers send are read: a path per
 * operation (`{"op":"Replace","path":"active","value":"False"}`, Entra ID) and a value object without a path
 * (`{"op":"replace","value":{"active":false}}`, Okta); `op` in any case, booleans as strings. The paths DigiCard maps
 * are changed; others (the enterprise extension, addresses...) are accepted and not kept.
 */
export function applyScimPatch(current: ScimUserFields, body: unknown): ScimUserFields {
  if (!isObject(body) || !Array.isArray(body['Operations']) || body['Operations'].length === 0)
    throw new ScimRequestError(400, 'invalidSyntax', 'The body must be a PatchOp with at least one operation in Operations.');
  const next: Json = { ...current };
  const set = (path: string, value: unknown, op: string): void => {
    const key = path.trim().toLowerCase();
    const remove = op === 'remove';
    const text = (v: unknown): string | null => (remove || v === null ? null : typeof v === 'string' ? v : null);
    switch (key) {
      case 'active':
        if (remove) throw new ScimRequestError(400, 'mutability', 'active cannot be removed.');
        next['active'] = booleanOf(value);
        return;
      case 'username':
        next['userName'] = text(value) ?? '';
        return;
      case 'externalid':
        next['externalId'] = text(value);
        return;
      case 'name.givenname':
        next['givenName'] = text(value) ?? '';
        return;
      case 'name.familyname':
        next['familyName'] = text(value) ?? '';
        return;
      case 'name':
        if (isObject(value)) for (const [k, v] of Object.entries(value)) set(`name.${k}`, v, op);
        return;
      case 'displayname': {
        const names = namesOf(value);
        if (names && !remove) Object.assign(next, names);
        return;
      }
      case 'title':
        next['title'] = text(value)?.trim() || null;
        return;
      case 'phonenumbers':
      case 'phonenumbers[type eq "work"].value':
      case 'phonenumbers[type eq "mobile"].value':
      case 'phonenumbers[primary eq true].value':
        next['tel'] = scimPhone(key === 'phonenumbers' ? primaryValue(value) : text(value));
        return;
      default:
        // Attributes DigiCard does not keep (addresses, the enterprise extension...): accepted, not stored.
        return;
    }
  };
  for (const operation of body['Operations']) {
    if (!isObject(operation) || typeof operation['op'] !== 'string')
      throw new ScimRequestError(400, 'invalidSyntax', ScimMessages.badPatch);
    const op = operation['op'].toLowerCase();
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw new ScimRequestError(400, 'invalidSyntax', ScimMessages.badPatch);
    const path = operation['path'];
    if (path !== undefined && typeof path !== 'string') throw new ScimRequestError(400, 'invalidPath', ScimMessages.badPatch);
    if (path) set(path, operation['value'], op);
    else if (op === 'remove') throw new ScimRequestError(400, 'noTarget', 'A remove operation needs a path.');
    else if (isObject(operation['value'])) for (const [k, v] of Object.entries(operation['value'])) set(k, v, op);
    else throw new ScimRequestError(400, 'invalidValue', ScimMessages.badPatch);
  }
  return parseFields(next);
}

/** The one filter providers send to find a user before creating it: `userName eq "..."` (also externalId, id). */
export const ScimFilterSchema = z.object({ attribute: z.enum(['userName', 'externalId', 'id']), value: z.string().max(256) });
export type ScimFilter = z.infer<typeof ScimFilterSchema>;

export function parseScimFilter(filter: string | undefined): ScimFilter | null {
  if (filter === undefined || filter.trim() === '') return null;
  const match = /^\s*(userName|externalId|id)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(filter);
  if (!match) throw new ScimRequestError(400, 'invalidFilter', ScimMessages.badFilter);
  const attribute = ({ username: 'userName', externalid: 'externalId', id: 'id' } as const)[
    match[1]!.toLowerCase() as 'username' | 'externalid' | 'id'
  ];
  const value = match[2]!.replace(/\\(.)/g, '$1');
  if (value.length > 256 || value.includes('\u0000')) throw new ScimRequestError(400, 'invalidFilter', ScimMessages.badFilter);
  return { attribute, value };
}

/** startIndex (1-based) and count of a list (RFC 7644 3.4.2.4): out-of-range values are brought into range. */
export function scimPaging(startIndex: unknown, count: unknown): { startIndex: number; count: number } {
  const toInt = (v: unknown, fallback: number): number => {
    if (v === undefined) return fallback;
    if (typeof v !== 'string' || !/^-?\d{1,9}$/.test(v.trim()))
      throw new ScimRequestError(400, 'invalidValue', 'startIndex and count must be integers.');
    return Number(v);
  };
  return { startIndex: Math.max(1, toInt(startIndex, 1)), count: Math.min(SCIM_MAX_COUNT, Math.max(0, toInt(count, SCIM_MAX_COUNT))) };
}

// ---- the bus: what the gateway asks the teams service ----

/** Which request a SCIM call was (for the audit list): never the token, never the query string. */
export const ScimCallSchema = z.object({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  path: z.string().max(300),
});
const scimBody = <T extends z.ZodRawShape>(shape: T) => z.object({ tokenHash: ScimTokenHashSchema, call: ScimCallSchema, ...shape });
export const ScimCreateUserSchema = scimBody({ user: ScimUserFieldsSchema });
export const ScimUserRefSchema = scimBody({ id: z.string().max(100) });
export const ScimListUsersSchema = scimBody({
  filter: ScimFilterSchema.nullable(),
  startIndex: z.number().int().min(1),
  count: z.number().int().min(0).max(SCIM_MAX_COUNT),
});
export const ScimReplaceUserSchema = scimBody({ id: z.string().max(100), user: ScimUserFieldsSchema });
/** PATCH: the gateway applies the operations to the stored user (`applyScimPatch`) and sends the outcome. */
export const ScimPatchUserSchema = scimBody({ id: z.string().max(100), operations: z.unknown() });
/** A call the gateway refused before asking teams (a bad filter, body or JSON): recorded in the audit list. */
export const ScimRefusedSchema = scimBody({ status: z.number().int().min(400).max(599), outcome: z.string().max(40) });

export const ScimUserResultSchema = z.object({
  user: ScimUserRecordSchema,
  /** The account was deactivated (or deleted) by this call: the gateway ends its sessions. */
  signedOut: z.boolean(),
});
export const ScimUserListSchema = z.object({ totalResults: z.number().int(), users: z.array(ScimUserRecordSchema) });

// ---- the Teams section: the token and the audit list ----

export const ScimTokenStateSchema = z
  .object({
    configured: z.boolean(),
    createdAt: z.iso.datetime().nullable(),
    lastUsedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ScimTokenState' });
export type ScimTokenState = z.infer<typeof ScimTokenStateSchema>;

/** What the leader sees in the Teams section: the token's state and the base URL to give the provider. */
export const ScimSettingsSchema = ScimTokenStateSchema.extend({ baseUrl: z.string() }).meta({ id: 'ScimSettings' });
export type ScimSettings = z.infer<typeof ScimSettingsSchema>;
/** A new token, shown once. */
export const ScimTokenIssuedSchema = ScimSettingsSchema.extend({ token: z.string() }).meta({ id: 'ScimTokenIssued' });
export type ScimTokenIssued = z.infer<typeof ScimTokenIssuedSchema>;
export const StoreScimTokenSchema = z.object({ tokenHash: ScimTokenHashSchema });

export const ScimAuditEntrySchema = z
  .object({
    id: z.uuid(),
    at: z.iso.datetime(),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    outcome: z.string(),
    /** The user the call was about (its id), when there was one. */
    userId: z.uuid().nullable(),
    userName: z.string().nullable(),
  })
  .meta({ id: 'ScimAuditEntry' });
export type ScimAuditEntry = z.infer<typeof ScimAuditEntrySchema>;
/** A page of the team's SCIM calls, newest first. */
export const ScimAuditSchema = pageOf('entries', ScimAuditEntrySchema).meta({ id: 'ScimAudit' });
export type ScimAudit = z.infer<typeof ScimAuditSchema>;

// ---- the staff console ----

export const TeamSignInStateSchema = z
  .object({
    sso: z.object({ configured: z.boolean(), required: z.boolean(), issuer: z.string().nullable() }),
    scim: ScimTokenStateSchema,
  })
  .meta({ id: 'TeamSignInState' });
export type TeamSignInState = z.infer<typeof TeamSignInStateSchema>;
export const TeamSignInOffFields = { sso: z.boolean().default(false), scim: z.boolean().default(false) };
export const TeamSignInOffSchema = z
  .object(TeamSignInOffFields)
  .refine((b) => b.sso || b.scim, { message: 'Say which to turn off: sso, scim or both.', path: ['sso'] })
  .meta({ id: 'TeamSignInOff' });
export type TeamSignInOff = z.infer<typeof TeamSignInOffSchema>;
