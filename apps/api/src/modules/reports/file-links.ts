import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Report file links that work without a session (ADR 0070). A link is
 * `/api/report/files/{id}/sdl_{expiry}_{signature}/{name}` (travel reports under `/api/travel-report/files/`):
 * `expiry` in Unix seconds, `signature` the HMAC-SHA256 of "{id}:{expiry}" under the report's own random key
 * (`reports.link_key`, never answered), base64url. So a link opens that one report's file, of that one enterprise,
 * until it expires; it cannot be made for another report nor stretched. The `sdl_` prefix makes it easy to find and
 * redact in logs: {@link REPORT_LINK_PATTERN}.
 */
export const REPORT_LINK_PREFIX = 'sdl_';

/** Matches a report link's capability wherever it appears (URLs in access logs, proxies' logs). */
export const REPORT_LINK_PATTERN = /sdl_\d{1,12}_[A-Za-z0-9_-]{43}/g;

const CAPABILITY = /^sdl_(\d{1,12})_([A-Za-z0-9_-]{43})$/;

function signature(reportId: string, linkKey: string, expiresAtSeconds: number): Buffer {
  return createHmac('sha256', linkKey).update(`${reportId}:${expiresAtSeconds}`).digest();
}

/** The capability segment of a report's link, valid until `expiresAt` (rounded up to the second). */
export function reportLinkCapability(reportId: string, linkKey: string, expiresAt: Date): string {
  const seconds = Math.ceil(expiresAt.getTime() / 1000);
  return `${REPORT_LINK_PREFIX}${seconds}_${signature(reportId, linkKey, seconds).toString('base64url')}`;
}

export type LinkCheck = 'valid' | 'expired' | 'invalid';

/** Whether a capability was made for this report with its key, and still holds at `now`. */
export function checkReportLink(capability: string, reportId: string, linkKey: string, now: Date): LinkCheck {
  const match = CAPABILITY.exec(capability);
  if (!match) return 'invalid';
  const seconds = Number(match[1]);
  // Compared as text, not decoded: the last of 43 base64url characters carries 2 unused bits, so four spellings
  // decode to the same bytes, and a link is one exact string.
  const given = Buffer.from(match[2]!, 'latin1');
  const expected = Buffer.from(signature(reportId, linkKey, seconds).toString('base64url'), 'latin1');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return seconds * 1000 > now.getTime() ? 'valid' : 'expired';
}
