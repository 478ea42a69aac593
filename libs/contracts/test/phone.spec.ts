import { describe, expect, it } from '@jest/globals';
import { optionalPhone, phoneNumber } from '../src/index.js';

const TEN_DIGITS = 'Please enter a 10-digit phone number, e.g. 0821234567.';
const error = (value: string) => {
  const result = phoneNumber.safeParse(value);
  return result.success ? null : result.error.issues[0]?.message;
};

describe('the one phone rule (libphonenumber)', () => {
  it('takes a South African number as the spec writes it: exactly 10 digits', () => {
    for (const typed of ['0821234567', '0211234567', ' 0821234567 '])
      expect([typed, phoneNumber.parse(typed)]).toEqual([typed, typed.trim()]);
  });

  it('refuses other forms, too few or too many digits, letters and numbers libphonenumber does not read as South African, with the product’s message', () => {
    for (const typed of ['082 123', '12345', '08212345678', 'abc', '+44 20 7946 0958', '+27 82 123 4567', '082 123 4567', '1234567890']) {
      expect([typed, error(typed)]).toEqual([typed, TEN_DIGITS]);
    }
    expect(error('')).toBe('Please enter your phone number.');
  });

  it('is the rule the profile’s optional number uses too (stored as E.164)', () => {
    expect(optionalPhone.parse('082 123 4567')).toBe('+27821234567');
    expect(optionalPhone.parse('+44 20 7946 0958')).toBe('+442079460958');
    expect(optionalPhone.parse('')).toBe('');
  });
});
