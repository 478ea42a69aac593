import { HttpRoutes, type LoginRequest } from '@digicard/contracts';
import { deleteJson, getJson, postJson } from '../../api/http';

/** GET /api/session: who is signed in, and the CSRF token to send with changes. */
export function fetchSession() {
  return getJson(HttpRoutes.getSession);
}

/** POST /api/session: signs in with email and password. */
export function logIn(body: LoginRequest) {
  return postJson(HttpRoutes.login, body);
}

/** DELETE /api/session: ends the session on the server. */
export function logOut() {
  return deleteJson(HttpRoutes.logout);
}
