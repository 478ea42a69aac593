import { HttpRoutes, type MoveOrder } from '@digicard/contracts';
import { callAt, getPage, routePath } from '../../api/http';

/** GET /api/order-details: a page of the owner's orders with proof, cards, history and tracking. */
export const fetchOrderDetails = (cursor: string | null = null) => getPage(HttpRoutes.listOrderDetails, cursor);
/** Where to pay one of the owner's orders that still awaits payment (a special bought with a sign-up, say). */
export const payOrder = (orderId: string) => callAt(HttpRoutes.payOrder, { orderId });
/** Cancels one of the owner's orders that still awaits payment. */
export const cancelOrder = (orderId: string) => callAt(HttpRoutes.cancelOrder, { orderId });
export const approveProof = (orderId: string) => callAt(HttpRoutes.approveProof, { orderId });
export const requestProofChanges = (orderId: string, note: string) => callAt(HttpRoutes.requestProofChanges, { orderId }, { note });
export const setCardDisabled = (serial: string, disabled: boolean) => callAt(HttpRoutes.setCardDisabled, { serial }, { disabled });
/** A team leader points a card at one of their reps (or back at themselves: their own account id). */
export const assignCard = (serial: string, accountId: string) => callAt(HttpRoutes.assignCard, { serial }, { accountId });

/** Links to the files (opened by the browser; the session cookie goes along). */
export const ownProofUrls = (orderId: string, version: number) => ({
  pdf: routePath(HttpRoutes.getOwnProofPdf.path, { orderId }),
  // The version in the query: a proof rendered again is a new image, not the cached one.
  png: `${routePath(HttpRoutes.getOwnProofPng.path, { orderId })}?v=${version}`,
});

// The print console (role print).
export const fetchPrintQueue = (cursor: string | null = null) => getPage(HttpRoutes.printQueue, cursor);
export const moveOrder = (orderId: string, move: MoveOrder) => callAt(HttpRoutes.moveOrder, { orderId }, move);
export const recordCard = (orderId: string, serial: string, nfcUid: string) =>
  callAt(HttpRoutes.recordCard, { orderId, serial }, { nfcUid });
export const rerenderProof = (orderId: string) => callAt(HttpRoutes.rerenderProof, { orderId });
export const printFileUrls = (orderId: string, version: number) => ({
  pdf: routePath(HttpRoutes.printProofPdf.path, { orderId }),
  png: `${routePath(HttpRoutes.printProofPng.path, { orderId })}?v=${version}`,
  packingSlip: routePath(HttpRoutes.packingSlip.path, { orderId }),
});
