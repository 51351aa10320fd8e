import { ContactResponse, type ContactBody } from '@sentinela/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** Where the contact form's widget asks for a challenge (GET, public). */
export const CONTACT_CHALLENGE_URL = '/api/contact-us/challenge';

/** POST /api/contact-us (A14). */
export function sendContact(body: ContactBody) {
  return apiRequest('/api/contact-us', { method: 'POST', body, auth: 'none', schema: ContactResponse });
}

export const useSendContact = () => useMutation({ mutationFn: sendContact });
