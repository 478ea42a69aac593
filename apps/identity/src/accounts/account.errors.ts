import { AccountMessages, ErrorCode } from '@digicard/contracts';
import { ServiceError } from '@digicard/server';

/** The identity service's refusals, each with the message the product has always shown (picked in one place). */
export const AccountErrors = {
  /** A form field the contract accepts but the service refuses (a taken username, a common password). */
  field: (field: string, message: string) =>
    new ServiceError({
      statusCode: 400,
      code: ErrorCode.ValidationFailed,
      message: 'Please correct the highlighted fields.',
      fieldErrors: { [field]: [message] },
    }),
  linkInvalid: () => new ServiceError({ statusCode: 400, code: ErrorCode.LinkInvalid, message: AccountMessages.linkInvalid }),
  /** A verification or reset link used by a caller signed in to another account: refused before anything is used. */
  linkForOtherAccount: () =>
    new ServiceError({ statusCode: 409, code: ErrorCode.LinkForOtherAccount, message: AccountMessages.linkForOtherAccount }),
  invalidCredentials: () =>
    new ServiceError({ statusCode: 401, code: ErrorCode.InvalidCredentials, message: AccountMessages.invalidCredentials }),
  wrongPassword: () => new ServiceError({ statusCode: 401, code: ErrorCode.WrongPassword, message: AccountMessages.wrongPassword }),
  accountNotFound: () => ServiceError.notFound('No such account.'),
} as const;
