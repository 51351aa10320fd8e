import { SignedInContext, useSession } from '../../lib/session';
import { LazySignedInLayout } from './LazySignedInLayout';
import { SignedOutLayout } from './SignedOutLayout';

/** For screens open to everyone (e.g. the 404 page): the signed-in shell when there is a session. */
export function SessionAwareLayout() {
  const session = useSession();
  if (!session) return <SignedOutLayout />;
  return (
    <SignedInContext value={session}>
      <LazySignedInLayout />
    </SignedInContext>
  );
}
