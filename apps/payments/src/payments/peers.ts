import type { RequestMeta } from '@digicard/contracts';
import type { RpcClient } from '@digicard/server';

/** The client this service asks other services with (orders for an order, identity for the buyer). */
export const PEERS_RPC = Symbol('PEERS_RPC');
export type PeersRpc = RpcClient;

/** The meta of a call this service makes on its own account: the same request id, nobody signed in. */
export const serviceMeta = (meta: RequestMeta): RequestMeta => ({ requestId: meta.requestId, userId: null, role: null, ip: null });
