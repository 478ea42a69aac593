import { z } from 'zod';
import { emailAddress } from './fields.js';
import { isReservedUsername } from './web-routes.js';

export const Roles = ['user', 'teamLeader', 'teamMember', 'print', 'staff'] as const;
export const RoleSchema = z.enum(Roles);
export type Role = z.infer<typeof RoleSchema>;

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Usernames become the public URL `/{username}`: lowercase letters, digits and hyphens. */
export const usernameField = z
  .string({ error: 'Please choose a username.' })
  .trim()
  .toLowerCase()
  .min(1, 'Please choose a username.')
  .min(USERNAME_MIN, `Usernames are ${USERNAME_MIN} to ${USERNAME_MAX} characters long.`)
  .max(USERNAME_MAX, `Usernames are ${USERNAME_MIN} to ${USERNAME_MAX} characters long.`)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'Use only lowercase letters, digits and hyphens, starting and ending with a letter or digit.')
  .refine((name) => !name.includes('--'), 'Please do not use two hyphens in a row.')
  .refine((name) => !isReservedUsername(name), 'That username is reserved. Please choose another.');

/** Length only: no composition rules. The server also refuses the most common passwords. */
export const newPasswordField = z
  .string({ error: 'Please enter a password.' })
  .min(1, 'Please enter a password.')
  .min(PASSWORD_MIN, `Please use at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Please use at most ${PASSWORD_MAX} characters.`);

const firstName = z
  .string({ error: 'Please enter your first name.' })
  .trim()
  .min(1, 'Please enter your first name.')
  .max(60, 'Please keep your first name under 60 characters.');
const lastName = z
  .string({ error: 'Please enter your last name.' })
  .trim()
  .min(1, 'Please enter your last name.')
  .max(60, 'Please keep your last name under 60 characters.');

export const RegisterRequestSchema = z
  .object({ username: usernameField, firstName, lastName, email: emailAddress, password: newPasswordField })
  .meta({ id: 'RegisterRequest' });
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;

export const LoginRequestSchema = z
  .object({
    email: z.string({ error: 'Please enter your email.' }).trim().min(1, 'Please enter your email.').max(254),
    password: z.string({ error: 'Please enter your password.' }).min(1, 'Please enter your password.').max(1024),
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

export const PasswordResetRequestSchema = z
  .object({
    email: z
      .string({ error: 'Please enter your email to reset your password.' })
      .trim()
      .min(1, 'Please enter your email to reset your password.')
      .max(254)
      .pipe(z.email('Please enter a valid email address, e.g. thabo@example.co.za.')),
  })
  .meta({ id: 'PasswordResetRequest' });
export type PasswordResetRequest = z.infer<typeof PasswordResetRequestSchema>;

/** Tokens are 128-bit random values, base64url: 22 characters. */
const tokenField = z.string({ error: 'This link is incomplete.' }).regex(/^[A-Za-z0-9_-]{22,64}$/, 'This link is incomplete.');

export const PasswordResetSchema = z.object({ token: tokenField, password: newPasswordField }).meta({ id: 'PasswordReset' });
export type PasswordReset = z.infer<typeof PasswordResetSchema>;

export const VerifyEmailSchema = z.object({ token: tokenField }).meta({ id: 'VerifyEmail' });
export type VerifyEmail = z.infer<typeof VerifyEmailSchema>;

/** The emailed links that sign their account in when used: the verification link and the reset link. */
export const SignInLinkPurposes = ['verify-email', 'reset-password'] as const;
export type SignInLinkPurpose = (typeof SignInLinkPurposes)[number];

/** A signed-in browser asks whose account a link is for before it uses the link (nothing is spent by asking). */
export const EmailLinkCheckSchema = z
  .object({ purpose: z.enum(SignInLinkPurposes, { error: 'This link is incomplete.' }), token: tokenField })
  .meta({ id: 'EmailLinkCheck' });
export type EmailLinkCheck = z.infer<typeof EmailLinkCheckSchema>;

/**
 * Whose account a live link is for: the signed-in one, or another one, named only by its masked address (`n***@e***.za`:
 * the first letter of the mailbox, the first letter of the domain and its last label; decision 0010).
 */
export const EmailLinkOwnerSchema = z.object({ forSignedInAccount: z.boolean(), maskedEmail: z.string() }).meta({ id: 'EmailLinkOwner' });
export type EmailLinkOwner = z.infer<typeof EmailLinkOwnerSchema>;

export const DeleteAccountSchema = z
  .object({
    password: z.string({ error: 'Please enter your password to confirm.' }).min(1, 'Please enter your password to confirm.').max(1024),
  })
  .meta({ id: 'DeleteAccount' });
export type DeleteAccount = z.infer<typeof DeleteAccountSchema>;

/** The owner's own names (Settings, Account): the public page shows them. */
export const AccountNamesSchema = z.object({ firstName, lastName }).meta({ id: 'AccountNames' });
export type AccountNames = z.infer<typeof AccountNamesSchema>;

/** A new email for the account: it takes effect when the link sent to it is used; the password confirms the request. */
export const EmailChangeRequestSchema = z
  .object({
    email: emailAddress,
    password: z.string({ error: 'Please enter your password to confirm.' }).min(1, 'Please enter your password to confirm.').max(1024),
  })
  .meta({ id: 'EmailChangeRequest' });
export type EmailChangeRequest = z.infer<typeof EmailChangeRequestSchema>;

/** The link in the email sent to the new address. */
export const EmailChangeConfirmSchema = z.object({ token: tokenField }).meta({ id: 'EmailChangeConfirm' });
export type EmailChangeConfirm = z.infer<typeof EmailChangeConfirmSchema>;

export const SessionUserSchema = z
  .object({
    id: z.uuid(),
    username: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    role: RoleSchema,
    isVerified: z.boolean(),
  })
  .meta({ id: 'SessionUser' });
export type SessionUser = z.infer<typeof SessionUserSchema>;

export const SessionResponseSchema = z
  .object({
    user: SessionUserSchema.nullable(),
    /** Send it back as the `x-csrf-token` header on every state-changing request while signed in. */
    csrfToken: z.string().nullable(),
  })
  .meta({ id: 'SessionResponse' });
export type SessionResponse = z.infer<typeof SessionResponseSchema>;

export const MessageResponseSchema = z.object({ message: z.string() }).meta({ id: 'MessageResponse' });
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

export const CSRF_HEADER = 'x-csrf-token';

/** The texts the product has always shown (spec section 8), picked in one place. */
export const AccountMessages = {
  invalidCredentials: 'Incorrect email or password.',
  wrongPassword: 'Incorrect password. Please try again.',
  loginFailed: 'Login failed. Please try again.',
  resetSent: 'Password reset link sent. Check your email.',
  resetFailed: 'Failed to send reset link. Try again.',
  resetEmailRequired: 'Please enter your email to reset your password.',
  usernameTaken: 'That username is taken. Please choose another.',
  emailTaken: 'An account with this email already exists. Log in or reset your password.',
  commonPassword: 'This password is too common. Please choose another.',
  linkInvalid: 'This link is invalid, has expired or has already been used.',
  /**
   * A verification or reset link opened in a browser signed in to another account: nothing is used or changed, and
   * the session stays as it is (a link never switches accounts by itself; the page asks first).
   */
  linkForOtherAccount: 'This link is for another account. Please sign out first, then open the link again.',
  verified: 'Your email address is verified. You can now share your profile.',
  passwordChanged: 'Your password is changed. You are signed in, and signed out everywhere else.',
  verificationSent: 'We sent you a new verification email.',
  passwordRequired: 'Password required to confirm.',
  accountDeleted: 'Your account and everything we held about it are deleted.',
  /** The answer to every registration, whether the email was new or has an account (decisions.md). */
  registered: 'Thank you for registering. Please check your inbox and verify your email address.',
  passwordHasUsername: 'Your password must not contain your username. Please choose another.',
  passwordHasEmail: 'Your password must not contain your email address. Please choose another.',
  namesSaved: 'Your name is saved.',
  /**
   * The answer to every email change request, whether the address was free or has an account (decisions.md: a
   * stranger learns nothing about other accounts); only the mailbox's owner hears more.
   */
  emailChangeSent:
    'Please check the inbox of your new email address and follow the link to confirm it. Your email stays the same until then.',
  sameEmail: 'That is your current email address.',
  emailChanged: 'Your email address is changed. Please use the new one to log in.',
  /** A team member's name and email are their leader's to change (Teams), so the leader's list stays right. */
  managedByLeader: 'Your team leader manages your name and email. Please ask them to change it.',
} as const;

/**
 * identity's answer to a registration: the new account's id, or null when the email has an account already (its
 * owner is emailed). Only the gateway sees it; its HTTP answer is the same in both cases.
 */
export const RegistrationSchema = z.object({ accountId: z.uuid().nullable() });
export type Registration = z.infer<typeof RegistrationSchema>;

/**
 * The answer to a sign-up (POST /api/accounts, and /api/registration with an account): the same for a new email and
 * one that has an account, and no session: the emailed verification link signs the new account in.
 */
export const RegisteredResponseSchema = z.object({ registered: z.literal(true), message: z.string() }).meta({ id: 'RegisteredResponse' });
export type RegisteredResponse = z.infer<typeof RegisteredResponseSchema>;
