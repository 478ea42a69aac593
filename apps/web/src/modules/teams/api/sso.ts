import { HttpRoutes, type SaveSsoSettings, type SsoStart } from '@digicard/contracts';
import { deleteJson, getJson, postJson, putJson } from '../../api/http';

/** GET /api/team/sso: the team's company sign-in (never the client secret: `hasClientSecret` only). */
export function fetchSsoSettings() {
  return getJson(HttpRoutes.getSsoSettings);
}

/** PUT /api/team/sso: 400 with field errors (issuer, clientId, clientSecret, domains.<i>). An empty secret keeps the stored one. */
export function saveSsoSettings(body: SaveSsoSettings) {
  return putJson(HttpRoutes.saveSsoSettings, body);
}

/** DELETE /api/team/sso: reps sign in with their passwords again. */
export function removeSsoSettings() {
  return deleteJson(HttpRoutes.removeSsoSettings);
}

/** POST /api/sso/start: where to send the browser (the provider's sign-in page); 404 when no team's provider serves it. */
export function startSso(body: SsoStart) {
  return postJson(HttpRoutes.startSso, body);
}
