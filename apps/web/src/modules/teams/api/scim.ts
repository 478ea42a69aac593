import { HttpRoutes } from '@digicard/contracts';
import { deleteJson, getJson, getPage, postJson } from '../../api/http';

/** GET /api/team/scim: whether the team has a SCIM token, when it was made and last used, and the base URL. */
export function fetchScimSettings() {
  return getJson(HttpRoutes.getScimSettings);
}

/** POST /api/team/scim/token: a new token (shown this once), replacing any earlier one at once. */
export function issueScimToken() {
  return postJson(HttpRoutes.issueScimToken);
}

/** DELETE /api/team/scim/token: the identity provider can no longer provision reps. */
export function revokeScimToken() {
  return deleteJson(HttpRoutes.revokeScimToken);
}

/** GET /api/team/scim/audit: the team's SCIM calls, newest first, a page at a time. */
export function fetchScimAudit(cursor: string | null = null) {
  return getPage(HttpRoutes.listScimAudit, cursor);
}
