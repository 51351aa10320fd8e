import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config';
import { createTestContext } from './context';

/** The web app's run-time settings (T7: tile and routing servers), served as /config.json. */
describe('GET /config.json (WEB_RUNTIME_CONFIG)', () => {
  it('parses the JSON object once, and refuses anything else at start', () => {
    expect(loadConfig({ WEB_RUNTIME_CONFIG: '{"routingUrl":"http://osrm.local:5000"}' }).webRuntimeConfig).toEqual({
      routingUrl: 'http://osrm.local:5000',
    });
    expect(loadConfig({}).webRuntimeConfig).toBeUndefined();
    expect(() => loadConfig({ WEB_RUNTIME_CONFIG: '[1,2]' })).toThrow(/WEB_RUNTIME_CONFIG/);
    expect(() => loadConfig({ WEB_RUNTIME_CONFIG: 'tileUrl=x' })).toThrow(/WEB_RUNTIME_CONFIG/);
  });

  it('serves it to anyone, never cached', async () => {
    const settings = { tileUrl: 'http://127.0.0.1:9/{z}/{x}/{y}.png', routingUrl: 'http://127.0.0.1:10' };
    const ctx = await createTestContext({ config: { webRuntimeConfig: settings } });
    try {
      const res = await ctx.request('GET', '/config.json');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.json()).toEqual(settings);
    } finally {
      await ctx.close();
    }
  });

  it('is absent without it (the web app keeps its build defaults)', async () => {
    const ctx = await createTestContext();
    try {
      expect((await ctx.request('GET', '/config.json')).statusCode).toBe(404);
    } finally {
      await ctx.close();
    }
  });
});
