import {
  HttpRoutes,
  type AccountNames,
  type EmailChangeConfirm,
  type EmailChangeRequest,
  type EmailLinkCheck,
  type PasswordReset,
  type PasswordResetRequest,
  type RegisterRequest,
  type VerifyEmail,
} from '@digicard/contracts';
import { postJson, putJson } from '../../api/http';

/** POST /api/accounts: creates the account and signs it in (201 SessionResponse). */
export function register(body: RegisterRequest) {
  return postJson(HttpRoutes.register, body);
}

/** POST /api/email-verification: uses the single-use link from the verification email. */
export function verifyEmail(body: VerifyEmail) {
  return postJson(HttpRoutes.verifyEmail, body);
}

/** POST /api/email-verification/resend: a new verification email for the signed-in account. */
export function resendVerification() {
  return postJson(HttpRoutes.resendVerification);
}

/** POST /api/password-reset/request: emails a reset link when the account exists. */
export function requestPasswordReset(body: PasswordResetRequest) {
  return postJson(HttpRoutes.requestPasswordReset, body);
}

/** POST /api/password-reset: sets the new password with the link's token and signs in (200 SessionResponse). */
export function resetPassword(body: PasswordReset) {
  return postJson(HttpRoutes.resetPassword, body);
}

/** PUT /api/accounts/me/name: the owner's first and last name (200 SessionUser). */
export function renameAccount(body: AccountNames) {
  return putJson(HttpRoutes.renameAccount, body);
}

/** POST /api/accounts/me/email: a new email, confirmed by the password; the link goes to the new address (202). */
export function requestEmailChange(body: EmailChangeRequest) {
  return postJson(HttpRoutes.requestEmailChange, body);
}

/** POST /api/email-change: the link from the email sent to the new address. */
export function confirmEmailChange(body: EmailChangeConfirm) {
  return postJson(HttpRoutes.confirmEmailChange, body);
}

/** POST /api/email-links/check: whose account a verification or reset link is for, asked while signed in (nothing is spent). */
export function checkEmailLink(body: EmailLinkCheck) {
  return postJson(HttpRoutes.checkEmailLink, body);
}
