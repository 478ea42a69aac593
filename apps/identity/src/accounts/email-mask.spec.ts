import { describe, expect, it } from '@jest/globals';
import { maskEmail } from './email-mask.js';

describe('maskEmail', () => {
  it('keeps the first letter of the mailbox and of the domain, and the last label, in lower case', () => {
    expect(maskEmail('Naledi@Example.co.za')).toBe('n***@e***.za');
    expect(maskEmail('thabo.mokoena+cards@mail.company.com')).toBe('t***@m***.com');
  });

  it('says nothing of the lengths: a one-letter mailbox and a long one look alike', () => {
    expect(maskEmail('a@example.test')).toBe('a***@e***.test');
    expect(maskEmail('andiswa-the-long-one@example.test')).toBe('a***@e***.test');
  });

  it('keeps a non-Latin first letter whole, and copes with a domain without a dot', () => {
    expect(maskEmail('Ümit@bücher.de')).toBe('ü***@b***.de');
    expect(maskEmail('root@localhost')).toBe('r***@l***');
  });
});
