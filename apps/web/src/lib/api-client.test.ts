import { CLIENT_VERSION, MSG } from '@sentinela/contract';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, mockFetch } from '../test/fetch';
import { makeSession } from '../test/fixtures';
import { ApiError, apiRequest, NETWORK_ERROR_MESSAGE } from './api-client';
import { getSession, onSessionExpired, startSession } from './session';

describe('apiRequest', () => {
  it('sends the client headers and the bearer token of the session', async () => {
    startSession(makeSession(3));
    const { requests } = mockFetch(() => jsonResponse({ ok: 1 }));

    await expect(apiRequest('/api/things', { method: 'POST', body: { a: 1 } })).resolves.toEqual({ ok: 1 });

    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.url).toBe('/api/things');
    expect(request?.headers).toMatchObject({
      client: 'web',
      clientversion: CLIENT_VERSION,
      authorization: 'Bearer token-123',
      'content-type': 'application/json',
    });
    expect(request?.headers.clientos).toBeTruthy();
    expect(request?.body).toEqual({ a: 1 });
  });

  it('throws ApiError with the server error text', async () => {
    mockFetch(() => errorResponse(429, MSG.tooManyLoginAttempts, 'TOO_MANY_REQUESTS'));
    const error = await apiRequest('/api/authenticate', { method: 'POST', auth: 'none' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', message: MSG.tooManyLoginAttempts });
  });

  it('reports a network failure in Portuguese', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(apiRequest('/api/x', { auth: 'none' })).rejects.toMatchObject({ status: 0, message: NETWORK_ERROR_MESSAGE });
  });

  it('ends the session when an authorized request is answered 401', async () => {
    startSession(makeSession(3));
    const onExpired = vi.fn();
    const unsubscribe = onSessionExpired(onExpired);
    mockFetch(() => errorResponse(401, MSG.sessionExpired, 'SESSION_EXPIRED'));

    await expect(apiRequest('/api/me')).rejects.toMatchObject({ status: 401 });
    expect(getSession()).toBeNull();
    expect(onExpired).toHaveBeenCalledTimes(1);
    unsubscribe();
  });

  it('does not call the server once the window has closed', async () => {
    vi.useFakeTimers({ now: Date.parse('2024-05-10T12:00:00Z') });
    startSession(makeSession(3));
    const { fetchMock } = mockFetch(() => jsonResponse({}));
    vi.advanceTimersByTime(5 * 60_000 + 1);

    await expect(apiRequest('/api/me')).rejects.toMatchObject({ status: 401, message: MSG.sessionExpired });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a 401 to a request without the session (sign-in) leaves no session to end', async () => {
    const onExpired = vi.fn();
    const unsubscribe = onSessionExpired(onExpired);
    mockFetch(() => errorResponse(401, MSG.invalidCredentials));
    await expect(apiRequest('/api/authenticate', { method: 'POST', auth: 'none' })).rejects.toMatchObject({
      message: MSG.invalidCredentials,
    });
    expect(onExpired).not.toHaveBeenCalled();
    unsubscribe();
  });
});
