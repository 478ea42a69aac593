import { describe, expect, it } from '@jest/globals';
import { SetVanityPathsSchema, type ApiError } from '@digicard/contracts';
import { z } from 'zod';
import { applyApiError, SEND_FAILED_MESSAGE } from './apply-api-error';
import { namingListItems, splitList, typedList } from './typed-list';

// How a refused submission lands on a react-hook-form form, and how a list typed in one field is checked.

type Placed = Array<[string, string, boolean]>;
function recorder() {
  const placed: Placed = [];
  const setError = (name: string, error: { message?: string }, options?: { shouldFocus?: boolean }) => {
    placed.push([name, error.message ?? '', options?.shouldFocus ?? false]);
  };
  return { placed, setError };
}
const invalid = (fieldErrors: Record<string, string[]>, message = 'Please check the form.'): ApiError => ({
  statusCode: 400,
  code: 'VALIDATION_FAILED',
  message,
  fieldErrors,
});

describe('applyApiError', () => {
  it('puts each field error on its field, focusing the first, and leaves no alert when they say it all', () => {
    const { placed, setError } = recorder();
    const alert = applyApiError(invalid({ url: ['Use https.'], enabled: ['Say yes or no.'] }), ['url', 'enabled'], setError);
    expect(alert).toBeNull();
    expect(placed).toEqual([
      ['url', 'Use https.', true],
      ['enabled', 'Say yes or no.', false],
    ]);
  });

  it('puts an error about part of a field (paths.1) on that field, once, with the first message about it', () => {
    const { placed, setError } = recorder();
    const error = invalid({ 'paths.1': ['Use only lowercase letters.'], 'paths.3': ['Each path only once, please.'] });
    expect(applyApiError(error, ['paths'], setError)).toBeNull();
    expect(placed).toEqual([['paths', 'Use only lowercase letters.', true]]);
  });

  it('does not take a field for another whose name it begins with (pathsExtra is not paths)', () => {
    const { placed, setError } = recorder();
    expect(applyApiError(invalid({ pathsExtra: ['Not this one.'] }), ['paths'], setError)).toBe('Not this one.');
    expect(placed).toEqual([]);
  });

  it('says a field error the form has no field for in the alert (the rows of a CSV), still placing the others', () => {
    const { placed, setError } = recorder();
    const alert = applyApiError(
      invalid({ leaderPassword: ['Incorrect password.'], 'reps.0.email': ['That email is taken.'] }),
      ['leaderPassword'],
      setError,
    );
    expect(alert).toBe('That email is taken.');
    expect(placed).toEqual([['leaderPassword', 'Incorrect password.', true]]);
  });

  it('a 400 without field errors says its message; a 429 its own; a 503 or no answer the fallback', () => {
    const { placed, setError } = recorder();
    expect(applyApiError(invalid({}, 'That did not work.'), ['url'], setError)).toBe('That did not work.');
    expect(
      applyApiError({ statusCode: 429, code: 'TOO_MANY_REQUESTS', message: 'Please try again in 5 minutes.' }, ['url'], setError),
    ).toBe('Please try again in 5 minutes.');
    expect(applyApiError({ statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: 'Down.' }, ['url'], setError)).toBe(SEND_FAILED_MESSAGE);
    expect(applyApiError({ statusCode: 0, code: 'NETWORK_ERROR', message: 'Offline.' }, ['url'], setError, 'Fallback.')).toBe('Fallback.');
    expect(placed).toEqual([]);
  });
});

describe('typedList', () => {
  const form = z.object({ paths: typedList(SetVanityPathsSchema.shape.paths) });

  it('gives the list as the contract makes it (trimmed, lower-cased), split on commas, semicolons and spaces', () => {
    expect(form.parse({ paths: ' Lindiwe-Promo, pinnacle-point-2;extra  ' })).toEqual({
      paths: ['lindiwe-promo', 'pinnacle-point-2', 'extra'],
    });
    expect(form.parse({ paths: '' })).toEqual({ paths: [] });
  });

  it('names the first wrong item in the field’s one error, in the contract’s words', () => {
    const result = form.safeParse({ paths: 'good-one, bad_path, also_bad' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['paths'], 'bad_path: Use only lowercase letters, digits and hyphens, starting and ending with a letter or digit (at most 64).'],
    ]);
  });

  it('says a rule about the whole list without naming an item', () => {
    const fiftyOne = Array.from({ length: 51 }, (_, i) => `path-${i}`).join(',');
    expect(form.safeParse({ paths: fiftyOne }).error?.issues[0]?.message).toBe('At most 50 paths per profile.');
  });

  it('splitList leaves empty items out', () => {
    expect(splitList(' a,, b ;c ')).toEqual(['a', 'b', 'c']);
  });
});

describe('namingListItems', () => {
  it('leads each item’s server error with the item, leaving other fields’ errors as they are', () => {
    const named = namingListItems(invalid({ 'domains.1': ['Please enter a valid email domain.'], issuer: ['Bad issuer.'] }), 'domains', [
      'karoo-solar.co.za',
      'nope',
    ]);
    expect(named.fieldErrors).toEqual({ 'domains.1': ['nope: Please enter a valid email domain.'], issuer: ['Bad issuer.'] });
  });
});
