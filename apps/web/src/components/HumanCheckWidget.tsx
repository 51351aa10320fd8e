// The ALTCHA widget without its bundled workers and styles ("external" build): under the app's CSP, its worker
// is a file of our build (same origin) and its CSS a stylesheet, not code made at run time (ADR 0017).
import 'altcha/external';
import 'altcha/altcha.css';
import 'altcha/i18n/pt-br';
import type {} from 'altcha/types/react';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import { useEffect, useRef } from 'react';

// The server's challenges are PBKDF2/SHA-256 (apps/api/src/modules/contact/human-check.ts), for the contact form and the sign-up.
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());

/**
 * "Eu não sou um robô": the self-hosted proof of work. The browser solves the server's challenge (about a second)
 * and hands the answer to `onToken`; null while there is none (not yet, expired, failed). A new key gives a new one.
 */
export function HumanCheckWidget({ challengeUrl, onToken }: { challengeUrl: string; onToken: (token: string | null) => void }) {
  const element = useRef<HTMLElement>(null);

  useEffect(() => {
    const widget = element.current;
    if (!widget) return;
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<{ state: string; payload?: string | null }>).detail;
      onToken(detail.state === 'verified' && detail.payload ? detail.payload : null);
    };
    widget.addEventListener('statechange', listener);
    return () => widget.removeEventListener('statechange', listener);
  }, [onToken]);

  return <altcha-widget ref={element} challenge={challengeUrl} language="pt-br" name="altcha" workers={2} />;
}
