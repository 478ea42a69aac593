import type { RpcClient } from '@digicard/server';

/** The client this service asks other services with (orders for an order, identity for the buyer). */
export const PEERS_RPC = Symbol('PEERS_RPC');
export type PeersRpc = RpcClient;
