import { HttpRoutes, type StaffRevocableRole } from '@digicard/contracts';
import { callAt, getJson, getPage, postJson, postPage, putJson, withParams } from '../../api/http';

/** The staff console's calls (role staff; the gateway and each service check it). */
/** A page of the accounts found (newest first): the first without a cursor, the next with the last page's `nextCursor`. */
export const searchAccounts = (query: string, cursor: string | null = null) => postPage(HttpRoutes.staffSearchAccounts, { query }, cursor);
export const getAccount = (accountId: string) => getJson(withParams(HttpRoutes.staffGetAccount, { accountId }));
/** A page of the account's audited changes (newest first): the first without a cursor, the next with `nextCursor`. */
export const fetchAccountAudit = (accountId: string, cursor: string | null = null) =>
  getPage(withParams(HttpRoutes.staffAccountAudit, { accountId }), cursor);
export const setRole = (accountId: string, role: 'user' | 'teamLeader') =>
  putJson(withParams(HttpRoutes.staffSetRole, { accountId }), { role });
/** Takes the print or staff role away (the account becomes an ordinary user); the role named must be the one held. */
export const revokeRole = (accountId: string, role: StaffRevocableRole) =>
  postJson(withParams(HttpRoutes.staffRevokeRole, { accountId }), { role });
export const setPartner = (accountId: string, isPartner: boolean) =>
  putJson(withParams(HttpRoutes.staffSetPartner, { accountId }), { isPartner });
export const setVanityPaths = (accountId: string, paths: string[]) =>
  putJson(withParams(HttpRoutes.staffSetVanityPaths, { accountId }), { paths });
export const setBusiness = (accountId: string, businessUsername: string | null) =>
  putJson(withParams(HttpRoutes.staffSetBusiness, { accountId }), { businessUsername });

/** Orders whose print proof failed to render, and "render again" (the print team's action, open to support too). */
export const fetchFailedProofs = (cursor: string | null = null) => getPage(HttpRoutes.staffFailedProofs, cursor);
export const renderProofAgain = (orderId: string) => callAt(HttpRoutes.staffRerenderProof, { orderId });

/** Payments to pay back by hand (a membership checkout given up and paid anyway, or one checkout paid twice). */
export const fetchRefundsDue = (cursor: string | null = null) => getPage(HttpRoutes.staffRefundsDue, cursor);

/** A team leader's company sign-in and SCIM, and turning either off (staff only; the teams service checks it again). */
export const fetchTeamSignIn = (accountId: string) => getJson(withParams(HttpRoutes.staffTeamSignIn, { accountId }));
export const turnTeamSignInOff = (accountId: string, off: { sso: boolean; scim: boolean }) =>
  postJson(withParams(HttpRoutes.staffTeamSignInOff, { accountId }), off);
