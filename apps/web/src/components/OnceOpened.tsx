import { Suspense, useState, type ReactNode } from 'react';

/**
 * Renders a lazy modal only from the first time it is opened, then keeps it mounted (its close transition plays and
 * a second opening is immediate). Until its chunk has loaded the first time, nothing is shown: the modal appears once
 * it is there, with its own opening transition, instead of its code weighing on the screen's first paint (ADR 0086).
 */
export function OnceOpened({ opened, children }: { opened: boolean; children: ReactNode }) {
  const [wasOpened, setWasOpened] = useState(opened);
  // Adjusting state while rendering (React's documented pattern): no extra frame with the modal missing.
  if (opened && !wasOpened) setWasOpened(true);
  if (!opened && !wasOpened) return null;
  return <Suspense fallback={null}>{children}</Suspense>;
}
