import { SCIM_MAX_COUNT, ScimSchemas } from '@digicard/contracts';

/**
 * The SCIM discovery documents (RFC 7643 sections 5-7; RFC 7644 section 4): what this service supports, its one
 * resource type, and the User schema as DigiCard keeps it. The same for every team, so they need no token.
 */
export function serviceProviderConfig(baseUrl: string, documentationUri: string) {
  return {
    schemas: [ScimSchemas.serviceProviderConfig],
    documentationUri,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_COUNT },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'The team’s SCIM token from the Teams section, as Authorization: Bearer <token>.',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

export function resourceTypes(baseUrl: string) {
  const user = {
    schemas: [ScimSchemas.resourceType],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'A sales rep of the team',
    schema: ScimSchemas.user,
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
  };
  return { schemas: [ScimSchemas.listResponse], totalResults: 1, startIndex: 1, itemsPerPage: 1, Resources: [user] };
}

const attribute = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});
const multiValued = (name: string) =>
  attribute(name, {
    type: 'complex',
    multiValued: true,
    subAttributes: [attribute('value'), attribute('type'), attribute('primary', { type: 'boolean' })],
  });

export function schemas(baseUrl: string) {
  const user = {
    schemas: [ScimSchemas.schema],
    id: ScimSchemas.user,
    name: 'User',
    description: 'A sales rep: userName is their email address',
    attributes: [
      attribute('userName', { required: true, uniqueness: 'server' }),
      attribute('externalId', { caseExact: true }),
      attribute('name', {
        type: 'complex',
        subAttributes: [attribute('givenName', { required: true }), attribute('familyName', { required: true }), attribute('formatted')],
      }),
      attribute('displayName'),
      attribute('title'),
      attribute('active', { type: 'boolean' }),
      multiValued('emails'),
      multiValued('phoneNumbers'),
    ],
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${ScimSchemas.user}` },
  };
  return { schemas: [ScimSchemas.listResponse], totalResults: 1, startIndex: 1, itemsPerPage: 1, Resources: [user] };
}
