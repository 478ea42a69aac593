import { z } from 'zod';

/** Field rules shared by every form that asks for them, so the browser and the server say the same thing. */
export const personName = z
  .string({ error: 'Please enter your name.' })
  .trim()
  .min(1, 'Please enter your name.')
  .max(120, 'Please keep the name under 120 characters.');

export const emailAddress = z
  .string({ error: 'Please enter your email address.' })
  .trim()
  .min(1, 'Please enter your email address.')
  .max(254, 'That email address is too long.')
  .pipe(z.email('Please enter a valid email address, e.g. thabo@example.co.za.'));

/** South African numbers as the product has always taken them: exactly 10 digits, e.g. 0821234567. */
export const phoneNumber = z
  .string({ error: 'Please enter your phone number.' })
  .trim()
  .min(1, 'Please enter your phone number.')
  .regex(/^\d{10}$/, 'Please enter a 10-digit phone number, e.g. 0821234567.');

export const messageText = z
  .string({ error: 'Please enter a message.' })
  .trim()
  .min(1, 'Please enter a message.')
  .max(5000, 'Please keep the message under 5000 characters.');
