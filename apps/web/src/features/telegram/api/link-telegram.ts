import { LoginResponse, OkResponse, TelegramLinkResponse, type LoginBody } from '@sentinela/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/**
 * "Vincular contas" (A12): POST /api/authenticate for a Bearer token, then POST /api/me/telegram/{chatId}/link with
 * it (empty body; the link's one-time token in the query, ADR 21). The token served only this: it is revoked after,
 * and the browser's own session, if any, is left as it was.
 */
export async function linkTelegram(chatId: string, linkToken: string, credentials: LoginBody): Promise<string> {
  const { token } = await apiRequest('/api/authenticate', { method: 'POST', body: credentials, auth: 'none', schema: LoginResponse });
  try {
    const answer = await apiRequest(`/api/me/telegram/${encodeURIComponent(chatId)}/link?token=${encodeURIComponent(linkToken)}`, {
      method: 'POST',
      auth: { token: token.token },
      schema: TelegramLinkResponse,
    });
    return answer.message;
  } finally {
    await apiRequest('/api/logout', { method: 'POST', auth: { token: token.token }, schema: OkResponse }).catch(() => undefined);
  }
}

export const useLinkTelegram = (chatId: string, linkToken: string) =>
  useMutation({ mutationFn: (credentials: LoginBody) => linkTelegram(chatId, linkToken, credentials) });
