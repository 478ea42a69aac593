import { HttpRoutes } from '@digicard/contracts';
import { getJson, postJson, putJson, withParams } from '../../api/http';

/** The staff console's calls (role staff; the gateway and each service check it). */
export const searchAccounts = (query: string) => postJson(HttpRoutes.staffSearchAccounts, { query });
export const getAccount = (accountId: string) => getJson(withParams(HttpRoutes.staffGetAccount, { accountId }));
export const setRole = (accountId: string, role: 'user' | 'teamLeader') => putJson(withParams(HttpRoutes.staffSetRole, { accountId }), { role });
export const setPartner = (accountId: string, isPartner: boolean) => putJson(withParams(HttpRoutes.staffSetPartner, { accountId }), { isPartner });
export const setVanityPaths = (accountId: string, paths: string[]) => putJson(withParams(HttpRoutes.staffSetVanityPaths, { accountId }), { paths });
export const setBusiness = (accountId: string, businessUsername: string | null) =>
  putJson(withParams(HttpRoutes.staffSetBusiness, { accountId }), { businessUsername });
