interface NavigatorUAData {
  platform?: string;
}

const OS_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/Windows/i, 'Windows'],
  [/Android/i, 'Android'],
  [/iPhone|iPad|iPod/i, 'iOS'],
  [/Mac OS X|Macintosh/i, 'macOS'],
  [/CrOS/i, 'Chrome OS'],
  [/Linux/i, 'Linux'],
];

/** The operating system sent in the clientOs header (P4): the UA-CH platform when available, else read from the user agent. */
export function detectClientOs(nav: Navigator = navigator): string {
  const platform = (nav as Navigator & { userAgentData?: NavigatorUAData }).userAgentData?.platform;
  if (platform) return platform;
  const match = OS_PATTERNS.find(([pattern]) => pattern.test(nav.userAgent));
  // Header values must stay printable ASCII.
  return match ? match[1] : nav.userAgent.replace(/[^\x20-\x7e]/g, '').slice(0, 200) || 'unknown';
}
