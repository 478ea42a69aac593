import { randomInt } from 'node:crypto';

/**
 * Readable characters only: no 0/O, 1/I/L or U, so a reference read out over the phone or copied from a receipt
 * cannot be mistaken. 30 characters, 6 of them: about 729 million references.
 */
export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export const REFERENCE_PATTERN = /^DC-[23456789ABCDEFGHJKMNPQRSTVWXYZ]{6}$/;

/** A fresh order reference, e.g. `DC-7K3M9Q`; uniqueness is the table's (the writer retries a taken one). */
export function newOrderReference(): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return `DC-${code}`;
}

/** A card's serial, e.g. `K7M3Q9ZT`: 8 readable characters (about 656 billion), printed on the card, behind `/c/{serial}`. */
export function newCardSerial(): string {
  let serial = '';
  for (let i = 0; i < 8; i++) serial += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return serial;
}
