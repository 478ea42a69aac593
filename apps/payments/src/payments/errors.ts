import { ServiceError } from '@digicard/server';

export const conflict = (message: string) => new ServiceError({ statusCode: 409, code: 'CONFLICT', message });
export const unavailable = (message: string) => new ServiceError({ statusCode: 503, code: 'SERVICE_UNAVAILABLE', message });
