import { CepLookupResponse } from '@sentinela/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/cep/{cep}: the server asks the postal-code service (A4). */
export function lookupCep(cep: string, signal?: AbortSignal) {
  return apiRequest(`/api/cep/${encodeURIComponent(cep)}`, { schema: CepLookupResponse, signal });
}
