import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import {
  ScimRequestError,
  applyScimPatch,
  parseScimFilter,
  refuseScimNul,
  scimPaging,
  scimUserFromResource,
  type ScimUserFields,
} from '../src/index.js';

// Reading SCIM requests (issue 27): the resource a provider sends, its PATCH operations in both forms Entra ID and
// Okta use, and the one filter they send. Everything else is a SCIM error with its scimType.

const stored: ScimUserFields = {
  userName: 'thandi@acme.test',
  externalId: 'ext-1',
  givenName: 'Thandi',
  familyName: 'Mokoena',
  title: null,
  tel: '',
  active: true,
};

const refusal = (fn: () => unknown): { status: number; scimType: string | undefined } => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ScimRequestError, String(error));
    return { status: error.status, scimType: error.scimType };
  }
  assert.fail('no refusal');
};

describe('reading SCIM requests', () => {
  it('maps a User resource: userName as the email (lower-cased), names from name or displayName, a South African phone, active', () => {
    const user = scimUserFromResource({
      userName: 'Thandi@ACME.test',
      displayName: 'Thandi Grace Mokoena',
      title: 'Rep',
      phoneNumbers: [{ value: '+27 82 123 4567', type: 'mobile' }],
      active: 'False',
      externalId: 'abc',
    });
    assert.deepEqual(user, {
      userName: 'thandi@acme.test',
      externalId: 'abc',
      givenName: 'Thandi Grace',
      familyName: 'Mokoena',
      title: 'Rep',
      tel: '0821234567',
      active: false,
    });
    assert.equal(
      scimUserFromResource({
        userName: 'a@b.test',
        name: { givenName: 'A', familyName: 'B' },
        phoneNumbers: [{ value: '+1 212 555 0100' }],
      }).tel,
      '',
    );
    assert.deepEqual(
      refusal(() => scimUserFromResource({ userName: 'not-an-email', name: { givenName: 'A', familyName: 'B' } })),
      {
        status: 400,
        scimType: 'invalidValue',
      },
    );
    assert.deepEqual(
      refusal(() => scimUserFromResource({ userName: 'a@b.test' })),
      { status: 400, scimType: 'invalidValue' },
    );
    assert.deepEqual(
      refusal(() => scimUserFromResource([1, 2])),
      { status: 400, scimType: 'invalidSyntax' },
    );
  });

  it('applies PATCH in both forms, any case of op, booleans as strings', () => {
    assert.equal(applyScimPatch(stored, { Operations: [{ op: 'replace', value: { active: false } }] }).active, false);
    assert.equal(applyScimPatch(stored, { Operations: [{ op: 'Replace', path: 'active', value: 'False' }] }).active, false);
    assert.equal(
      applyScimPatch({ ...stored, active: false }, { Operations: [{ op: 'REPLACE', path: 'active', value: 'true' }] }).active,
      true,
    );
    const changed = applyScimPatch(stored, {
      Operations: [
        { op: 'Replace', path: 'name.familyName', value: 'Dlamini' },
        { op: 'Add', path: 'title', value: 'Lead' },
        { op: 'replace', value: { 'name.givenName': 'Thandeka', externalId: 'ext-2' } },
        { op: 'Add', path: 'phoneNumbers[type eq "work"].value', value: '082 123 4567' },
        { op: 'Replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Sales' },
      ],
    });
    assert.deepEqual(changed, {
      ...stored,
      familyName: 'Dlamini',
      givenName: 'Thandeka',
      title: 'Lead',
      externalId: 'ext-2',
      tel: '0821234567',
    });
    assert.equal(applyScimPatch({ ...stored, title: 'x' }, { Operations: [{ op: 'remove', path: 'title' }] }).title, null);
  });

  it('refuses a bad PatchOp with its scimType', () => {
    assert.deepEqual(
      refusal(() => applyScimPatch(stored, {})),
      { status: 400, scimType: 'invalidSyntax' },
    );
    assert.deepEqual(
      refusal(() => applyScimPatch(stored, { Operations: [{ op: 'move', path: 'active', value: true }] })),
      {
        status: 400,
        scimType: 'invalidSyntax',
      },
    );
    assert.deepEqual(
      refusal(() => applyScimPatch(stored, { Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] })),
      {
        status: 400,
        scimType: 'invalidValue',
      },
    );
    assert.deepEqual(
      refusal(() => applyScimPatch(stored, { Operations: [{ op: 'remove' }] })),
      { status: 400, scimType: 'noTarget' },
    );
    assert.deepEqual(
      refusal(() => applyScimPatch(stored, { Operations: [{ op: 'replace', path: 'userName', value: 'nope' }] })),
      {
        status: 400,
        scimType: 'invalidValue',
      },
    );
  });

  it('reads userName/externalId/id eq "..." and nothing else', () => {
    assert.deepEqual(parseScimFilter('userName eq "Thandi@acme.test"'), { attribute: 'userName', value: 'Thandi@acme.test' });
    assert.deepEqual(parseScimFilter('USERNAME EQ "a\\"b"'), { attribute: 'userName', value: 'a"b' });
    assert.deepEqual(parseScimFilter('externalId eq "00u1"'), { attribute: 'externalId', value: '00u1' });
    assert.equal(parseScimFilter(undefined), null);
    for (const garbage of [
      'userName co "x"',
      'userName eq x',
      'userName eq "a" or 1 eq 1',
      'emails[type eq "work"]',
      '"',
      'displayName eq "x"',
    ])
      assert.deepEqual(
        refusal(() => parseScimFilter(garbage)),
        { status: 400, scimType: 'invalidFilter' },
        garbage,
      );
  });

  it('refuses a NUL character in any text of a body (naming the field) and in a filter’s value', () => {
    const refused = (body: unknown) => {
      try {
        refuseScimNul(body);
        return null;
      } catch (error) {
        assert.ok(error instanceof ScimRequestError);
        return [error.status, error.scimType, error.message];
      }
    };
    assert.equal(refused({ userName: 'a@b.test', name: { givenName: 'Ann', familyName: 'B' } }), null);
    assert.deepEqual(refused({ name: { givenName: 'A\u0000nn' } })?.slice(0, 2), [400, 'invalidValue']);
    assert.match(String(refused({ name: { givenName: 'A\u0000nn' } })?.[2]), /^name\.givenName: /);
    assert.match(String(refused({ Operations: [{ op: 'replace', value: { title: 'x\u0000' } }] })?.[2]), /^Operations\.0\.value\.title: /);
    assert.throws(
      () => parseScimFilter('userName eq "a\u0000@b.test"'),
      (e: unknown) => e instanceof ScimRequestError && e.scimType === 'invalidFilter',
    );
  });

  it('brings startIndex and count into range', () => {
    assert.deepEqual(scimPaging(undefined, undefined), { startIndex: 1, count: 100 });
    assert.deepEqual(scimPaging('0', '1000'), { startIndex: 1, count: 100 });
    assert.deepEqual(scimPaging('3', '-2'), { startIndex: 3, count: 0 });
    assert.deepEqual(
      refusal(() => scimPaging('x', '1')),
      { status: 400, scimType: 'invalidValue' },
    );
  });
});
