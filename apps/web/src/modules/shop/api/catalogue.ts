import { HttpRoutes } from '@digicard/contracts';
import { getJson } from '../../api/http';

/** GET /api/catalogue: every card and special, sorted, prices in cents (the browser may cache it 5 minutes). */
export function fetchCatalogue() {
  return getJson(HttpRoutes.listCatalogue);
}
