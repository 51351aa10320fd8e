import { EmailAvailableResponse } from '@sentinela/contract';
import { apiRequest } from './api-client';

/** POST /api/user/email-available: whether no account has this e-mail yet (sign-up, profile, new users). */
export async function isEmailAvailable(email: string): Promise<boolean> {
  // The documents' answer: true when some account has the e-mail.
  const taken = await apiRequest('/api/user/email-available', { method: 'POST', body: { email }, auth: 'none', schema: EmailAvailableResponse });
  return !taken;
}
