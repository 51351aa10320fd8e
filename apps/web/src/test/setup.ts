import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { clearSession } from '../lib/session';

// A screen's first render loads its lazy route chunk; on a loaded 2-core machine that exceeds the 1 s default of
// findBy*/waitFor. Waiting longer changes no outcome: a missing element still fails, only later.
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks what Mantine measures with. A desktop: no media query matches (test/phone.ts makes a phone).
const desktopMatchMedia = (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
});
Object.defineProperty(window, 'matchMedia', { writable: true, value: desktopMatchMedia });

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
// jsdom has no FontFaceSet; Mantine's autosized Textarea listens to it for fonts that finish loading.
if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget() });
window.HTMLElement.prototype.scrollIntoView = () => {};
window.scrollTo = () => {};

beforeEach(() => {
  clearSession();
  sessionStorage.clear();
});

afterEach(() => {
  cleanup();
  // The notifications store outlives the rendered tree.
  notifications.clean();
  vi.useRealTimers();
  window.matchMedia = desktopMatchMedia;
});
