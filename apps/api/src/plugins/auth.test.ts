import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import auth from './auth';
import type { SessionService } from '../modules/auth/session-service';
import type { ApiTokenService } from '../modules/api-tokens/service';
import type { HotLimit } from '../lib/rate-limits/rate-limits';

describe('route permissions', () => {
  it('refuse to start an /api route that declares no permission', async () => {
    const app = Fastify();
    void app.register(auth, { sessions: {} as SessionService, apiTokens: {} as ApiTokenService, requestsPerUser: {} as HotLimit, requestsPerToken: {} as HotLimit });
    void app.register(async (scoped) => {
      scoped.get('/api/forgotten', async () => ({ ok: true }));
    });
    await expect(app.ready()).rejects.toThrow(/declares no permission/);
  });
});
