import { ErrorCode } from '@digicard/contracts';
import { ServiceError } from '@digicard/server';

export const conflict = (message: string) => new ServiceError({ statusCode: 409, code: ErrorCode.Conflict, message });
export const unavailable = (message: string) => new ServiceError({ statusCode: 503, code: ErrorCode.ServiceUnavailable, message });
