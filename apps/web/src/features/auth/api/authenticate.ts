import { LoginResponse, type LoginBody } from '@sentinela/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/authenticate (A2). Errors: 401 invalid credentials, 429 too many attempts, 400 validation. */
export function authenticate(body: LoginBody): Promise<LoginResponse> {
  return apiRequest('/api/authenticate', { method: 'POST', body, auth: 'none', schema: LoginResponse });
}
