import { Anchor, AppShell, Burger, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { Link, Outlet } from 'react-router';
import { useLogout } from '../../features/auth/api/logout';
import { OpenAlarmsBadge } from '../../features/open-alarms/components/OpenAlarmsBadge';
import { ReportExportProvider } from '../../components/report-export/export-provider';
import { LiveAlarmsProvider } from '../../lib/live-alarms';
import { SIGNED_IN_HOME } from '../../lib/paths';
import { clearSession, useRequiredSession } from '../../lib/session';
import { storedSessionIsValid } from '../../lib/session-check';
import { PageFallback } from './PageFallback';
import { SideMenu } from './SideMenu';

// The banner is off the first paint: most enterprises never show it, and its billing code is ~6 kB gzip (ADR 40).
const SubscriptionBanner = lazy(() => import('../../components/SubscriptionBanner').then((m) => ({ default: m.SubscriptionBanner })));

/**
 * Signed-in shell (P6): a side menu from 768px up; below it, a burger in the top bar opens the same menu. The top
 * bar, at every width, carries the open-alarms badge (issue 11, item 5), fed by the shell's alarms socket. Every screen
 * of an enterprise whose bill is overdue or restricted starts with the subscription banner (ADR 32, ADR 39).
 */
export function SignedInLayout() {
  const session = useRequiredSession();
  const logout = useLogout();
  const [opened, { toggle, close }] = useDisclosure(false);
  // A stored session of another shape (written by an older build) ends here: the guards send the user to /login.
  const valid = useMemo(() => storedSessionIsValid(session), [session]);
  useEffect(() => {
    if (!valid) clearSession();
  }, [valid]);
  if (!valid) return null;

  return (
    <LiveAlarmsProvider token={session.token}>
      <AppShell header={{ height: 56 }} navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Anchor component={Link} to={SIGNED_IN_HOME} fw={700} size="lg" underline="never" onClick={close}>
              Sentinela
            </Anchor>
            <Group gap="xs" wrap="nowrap">
              <OpenAlarmsBadge />
              <Burger hiddenFrom="sm" opened={opened} onClick={toggle} size="sm" aria-label="Abrir menu" />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar>
          <SideMenu session={session} onNavigate={close} onLogout={() => void logout()} />
        </AppShell.Navbar>
        <AppShell.Main>
          <Suspense fallback={null}>
            <SubscriptionBanner session={session} />
          </Suspense>
          <ReportExportProvider>
            <Suspense fallback={<PageFallback />}>
              <Outlet />
            </Suspense>
          </ReportExportProvider>
        </AppShell.Main>
      </AppShell>
    </LiveAlarmsProvider>
  );
}
