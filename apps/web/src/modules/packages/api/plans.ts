import { HttpRoutes } from '@digicard/contracts';
import { getJson } from '../../api/http';

/** GET /api/plans: each tier's monthly price in cents, as payments charges it (null: on request). */
export function fetchPlans() {
  return getJson(HttpRoutes.listPlans);
}
