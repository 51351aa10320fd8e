import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import auth from './auth';
import type { SessionService } from '../modules/auth/session-service';

describe('route permissions', () => {
  it('refuse to start an /api route that declares no permission', async () => {
    const app = Fastify();
    void app.register(auth, { sessions: {} as SessionService, userMaxRequestsPerMinute: 600 });
    void app.register(async (scoped) => {
      scoped.get('/api/forgotten', async () => ({ ok: true }));
    });
    await expect(app.ready()).rejects.toThrow(/declares no permission/);
  });
});
