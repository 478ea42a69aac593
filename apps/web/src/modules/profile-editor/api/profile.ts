import { HttpRoutes, type ImagePurpose, type ProfileDocument, type ProfileSettings } from '@digicard/contracts';
import { getJson, getPage, postRaw, putJson, routePath } from '../../api/http';

/** GET /api/profile: the signed-in owner's profile (200 OwnProfile; 401 when the session has ended). */
export function fetchOwnProfile() {
  return getJson(HttpRoutes.getOwnProfile);
}

/** PUT /api/profile: the whole document (the editor's Save). 400 field errors as `document.<path>`; 403 upgrade message. */
export function saveProfile(document: ProfileDocument) {
  return putJson(HttpRoutes.saveProfile, { document });
}

/** PUT /api/profile/settings: public or not, and a partner's membership (everyone else's tier: Billing). */
export function saveSettings(settings: ProfileSettings) {
  return putJson(HttpRoutes.saveProfileSettings, settings);
}

/** POST /api/profile/images/{purpose} with the file as the body: 201 `{ url }`. */
export function uploadImage(purpose: ImagePurpose, file: File) {
  return postRaw(HttpRoutes.uploadImage, { purpose }, file);
}

/** GET /api/profile/leads: a page of the owner's leads, newest first (the first without a cursor). */
export function fetchLeads(cursor: string | null = null) {
  return getPage(HttpRoutes.listLeads, cursor);
}

/** GET /api/wallet: which wallets the deployment offers the owner's card to. */
export function fetchWalletStatus() {
  return getJson(HttpRoutes.getWalletStatus);
}

/** GET /api/wallet/google: the owner's Add to Google Wallet link (asked for when the owner presses the button). */
export function fetchGoogleWalletLink() {
  return getJson(HttpRoutes.getGoogleWalletLink);
}

/** Addresses the editor links to (downloads open them in the browser, with the session cookie). */
export const ProfileLinks = {
  leadsCsv: HttpRoutes.exportLeads.path,
  dataExport: HttpRoutes.exportData.path,
  /** The owner's Apple Wallet pass: Safari on an iPhone opens it in Wallet's "Add" sheet. */
  applePass: HttpRoutes.downloadApplePass.path,
  qrPng: (username: string) => routePath(HttpRoutes.getQrPng.path, { username }),
  qrSvg: (username: string) => routePath(HttpRoutes.getQrSvg.path, { username }),
  vcard: (username: string) => routePath(HttpRoutes.getVcard.path, { username }),
  leads: (username: string) => routePath(HttpRoutes.submitLead.path, { username }),
} as const;
