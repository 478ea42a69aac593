import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { AccountNamesSchema, CallBackEnquirySchema, NUL_CHARACTER_MESSAGE, parseBody } from '../src/index.js';

describe('parseBody: a NUL character in any text is a field error', () => {
  it('names each field whose text holds a NUL, next to the schema’s own errors', () => {
    const result = parseBody(CallBackEnquirySchema, { name: 'a\u0000b', email: 'not an email', number: '0821234567' });
    assert.equal(result.success, false);
    if (result.success) return;
    assert.equal(result.error.statusCode, 400);
    assert.deepEqual(result.error.fieldErrors?.name, [NUL_CHARACTER_MESSAGE]);
    assert.ok(result.error.fieldErrors?.email?.[0]?.startsWith('Please enter a valid email'));
  });

  it('refuses a NUL that the schema alone accepts, nested in arrays and objects, and in keys', () => {
    assert.equal(
      AccountNamesSchema.safeParse({ firstName: 'Tha\u0000bo', lastName: 'M' }).success,
      true,
      'the schema alone lets it through',
    );
    const names = parseBody(AccountNamesSchema, { firstName: 'Tha\u0000bo', lastName: 'M' });
    assert.deepEqual(names.success ? null : names.error.fieldErrors, { firstName: [NUL_CHARACTER_MESSAGE] });
    const nested = parseBody(AccountNamesSchema, { firstName: 'A', lastName: 'B', extra: [{ deep: '\u0000' }], ['k\u0000']: 1 });
    assert.deepEqual(nested.success ? null : nested.error.fieldErrors, {
      'extra.0.deep': [NUL_CHARACTER_MESSAGE],
      _form: [NUL_CHARACTER_MESSAGE],
    });
    assert.deepEqual(parseBody(AccountNamesSchema, { firstName: ' Thabo ', lastName: 'M' }), {
      success: true,
      data: { firstName: 'Thabo', lastName: 'M' },
    });
  });
});
