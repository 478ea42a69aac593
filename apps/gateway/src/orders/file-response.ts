import type { Response } from 'express';
import type { FileData } from '@digicard/contracts';

/**
 * A file from a service (proof PDF/PNG, packing slip), opened in the browser (`inline`) under its name; private to
 * the signed-in caller, so never stored by a shared cache.
 */
export function sendFile(res: Response, file: FileData): void {
  res
    .status(200)
    .type(file.contentType)
    .set('Content-Disposition', `inline; filename="${file.fileName.replace(/[^A-Za-z0-9._-]/g, '')}"`)
    .set('Cache-Control', 'private, no-store')
    .set('X-Content-Type-Options', 'nosniff')
    .send(Buffer.from(file.dataBase64, 'base64'));
}
