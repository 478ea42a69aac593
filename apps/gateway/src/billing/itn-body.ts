import { isUtf8 } from 'node:buffer';
import { ErrorCode } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';

/**
 * PayFast posts its ITN as form-encoded text: a body with a NUL byte or bytes that are not UTF-8 is none of its, and
 * would reach PostgreSQL (which refuses NUL in text) as a 500. Refused with 400 before it is passed on.
 */
export function assertItnText(body: Buffer): void {
  if (body.includes(0) || !isUtf8(body)) {
    throw new ApiHttpException({
      statusCode: 400,
      code: ErrorCode.ValidationFailed,
      message: 'A PayFast notification is form-encoded text.',
    });
  }
}
