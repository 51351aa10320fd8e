import { describe, expect, it } from 'vitest';
import { checkReportLink, reportLinkCapability } from './file-links';

const KEY = 'link-key-0123456789';
const REPORT = '6f1c2a4e-1111-4222-8333-944455556666';
const NOW = new Date('2026-11-28T12:00:00Z');
const EXPIRES = new Date('2026-11-28T13:00:00Z');

/** The spellings of a 43-character base64url signature that decode to its very bytes (its last character's 2 unused bits). */
function sameBytesSpellings(capability: string): string[] {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(capability.at(-1)!);
  return [0, 1, 2, 3].map((low) => alphabet[(last & ~3) | low]!).filter((c) => c !== capability.at(-1)).map((c) => capability.slice(0, -1) + c);
}

describe('report file links (R4)', () => {
  it('holds for its report until it expires, and for nothing else', () => {
    const capability = reportLinkCapability(REPORT, KEY, EXPIRES);
    expect(capability).toMatch(/^sdl_\d+_[A-Za-z0-9_-]{43}$/);
    expect(checkReportLink(capability, REPORT, KEY, NOW)).toBe('valid');
    expect(checkReportLink(capability, REPORT, KEY, EXPIRES)).toBe('expired');
    expect(checkReportLink(capability, REPORT.replace('6666', '6667'), KEY, NOW)).toBe('invalid');
    expect(checkReportLink(capability, REPORT, `${KEY}x`, NOW)).toBe('invalid');
    const stretched = capability.replace(/^sdl_(\d+)_/, (_, s: string) => `sdl_${Number(s) + 3600}_`);
    expect(checkReportLink(stretched, REPORT, KEY, NOW)).toBe('invalid');
  });

  it('is one exact string: another spelling of the same signature bytes is refused', () => {
    // Every report id here: whichever its signature's last character, its three other spellings are refused.
    for (let n = 0; n < 32; n++) {
      const capability = reportLinkCapability(`${REPORT.slice(0, -2)}${String(n).padStart(2, '0')}`, KEY, EXPIRES);
      const spellings = sameBytesSpellings(capability);
      expect(spellings).toHaveLength(3);
      for (const other of spellings) {
        const signature = (s: string) => Buffer.from(s.split('_').slice(2).join('_'), 'base64url');
        expect(signature(other).equals(signature(capability))).toBe(true);
        expect(checkReportLink(other, `${REPORT.slice(0, -2)}${String(n).padStart(2, '0')}`, KEY, NOW)).toBe('invalid');
      }
    }
  });
});
