import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, screenshot, watchCspViolations } from './browser';
import { e2e } from './environment';

/**
 * Issue 14, item 2 (ADR 34): the API reference at /api/docs opens in Chromium under the app's CSP, lists the
 * operations of /api/openapi.json, and nothing it loads comes from outside this server (no CDN, no font, no
 * validator badge): every request the page makes is recorded and must go to the server under test.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId: string }>>;
}

describe('API reference (/api/docs)', () => {
  for (const viewport of [
    { name: 'desktop', width: 1280, height: 800 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    it(`renders every operation with no request leaving the machine (${viewport.name})`, { timeout: 240_000 }, async () => {
      const baseURL = e2e('baseURL');
      const { context, page } = await newPage(browser, { width: viewport.width, height: viewport.height });
      const requests: string[] = [];
      context.on('request', (request) => void requests.push(request.url()));
      const failed: string[] = [];
      page.on('response', (response) => void (response.status() >= 400 && failed.push(`${response.status()} ${response.url()}`)));
      const errors: string[] = [];
      page.on('pageerror', (error) => void errors.push(error.message));
      const violations = await watchCspViolations(page);

      const spec = (await (await fetch(`${baseURL}/api/openapi.json`)).json()) as OpenApiDocument;
      const expected = Object.values(spec.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));

      // Building the document the first time takes the server a second or two of CPU; until its event loop has
      // caught up, load shedding may answer 503 to the page's files (ADR 34). Wait for that, as a reader would reload.
      await expect
        .poll(async () => ((await (await fetch(`${baseURL}/api/health`)).json()) as { load: { eventLoopDelayMs: number } }).load.eventLoopDelayMs, { timeout: 60_000 })
        .toBeLessThan(100);
      await page.goto('/api/docs');
      await page.locator('.opblock, .swagger-ui .errors-wrapper').first().waitFor({ timeout: 150_000 });
      expect(failed).toEqual([]);
      expect(await page.locator('.swagger-ui .errors-wrapper').count()).toBe(0);
      await expect.poll(() => page.locator('.info .title').innerText()).toContain('Sentinela API');
      // Swagger UI renders only the operations near the viewport: scroll through the page and collect each one drawn.
      const rendered = new Set<string>();
      const collect = async () => {
        for (const id of await page.locator('.opblock').evaluateAll((blocks) => blocks.map((b) => b.id))) rendered.add(id.replace(/^operations-[^-]+-/, ''));
      };
      for (let y = 0; y <= (await page.evaluate(() => document.documentElement.scrollHeight)); y += Math.floor(viewport.height / 2)) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        await collect();
      }
      expect(expected.filter((id) => !rendered.has(id))).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));

      // One operation opened: its request body and its answers, including the shared error shape.
      const ingest = page.locator('.opblock-post').filter({ has: page.locator('[data-path="/api/ingest/readings"]') });
      await ingest.locator('.opblock-summary').first().click();
      await ingest.getByText('Request body').waitFor();
      await ingest.locator('.responses-table').getByText('401', { exact: true }).first().waitFor();
      await screenshot(page, `api-docs-${viewport.name}`);

      expect(errors).toEqual([]);
      expect(violations).toEqual([]);
      expect(requests.length).toBeGreaterThan(3);
      const outside = requests.filter((url) => !url.startsWith(`${baseURL}/`) && !url.startsWith('data:') && !url.startsWith('blob:'));
      expect(outside).toEqual([]);
      expect(new URL(baseURL).hostname).toBe('127.0.0.1');
      await context.close();
    });
  }
});
