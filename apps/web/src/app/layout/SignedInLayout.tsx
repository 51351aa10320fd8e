import { Anchor, Burger, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useEffect } from 'react';
import { Link, Outlet } from 'react-router';
import { useLogout } from '../../features/auth/api/logout';
import { OpenAlarmsBadge } from '../../features/open-alarms/components/OpenAlarmsBadge';
import { ReportExportProvider } from '../../components/report-export/export-provider';
import { LiveAlarmsProvider } from '../../lib/live-alarms';
import { SIGNED_IN_HOME } from '../../lib/paths';
import { clearSession, useRequiredSession } from '../../lib/session';
import { PageFallback } from './PageFallback';
import classes from './SignedInLayout.module.css';
import { SideMenu } from './SideMenu';

// The banner is off the first paint: most enterprises never show it, and its billing code is ~6 kB gzip (ADR 40).
const SubscriptionBanner = lazy(() => import('../../components/SubscriptionBanner').then((m) => ({ default: m.SubscriptionBanner })));

/**
 * Signed-in shell (P6): a side menu from 768px up; below it, a burger in the top bar opens the same menu. The top
 * bar, at every width, carries the open-alarms badge (issue 11, item 5), fed by the shell's alarms socket. Every screen
 * of an enterprise whose bill is overdue or restricted starts with the subscription banner (ADR 32, ADR 39). Its frame
 * is its own (SignedInLayout.module.css), not Mantine's AppShell (ADR 0048).
 */
export function SignedInLayout() {
  const session = useRequiredSession();
  const logout = useLogout();
  const [opened, { toggle, close }] = useDisclosure(false);
  // A stored session of another shape (written by an older build) ends right after the shell's first paint, when the
  // check and its schemas have loaded (zod is not part of the first load: ADR 0048); the guards then send the user
  // to /login. Until then the shell reads only what lib/session.ts checked when it read it (id, name, e-mail, profile).
  useEffect(() => {
    let current = true;
    void import('../../lib/session-check').then(({ storedSessionIsValid }) => {
      if (current && !storedSessionIsValid(session)) clearSession();
    });
    return () => {
      current = false;
    };
  }, [session]);

  return (
    <LiveAlarmsProvider token={session.token}>
      <header className={classes.header}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Anchor component={Link} to={SIGNED_IN_HOME} fw={700} size="lg" underline="never" onClick={close}>
            Sentinela
          </Anchor>
          <Group gap="xs" wrap="nowrap">
            <OpenAlarmsBadge />
            <Burger hiddenFrom="sm" opened={opened} onClick={toggle} size="sm" aria-label="Abrir menu" />
          </Group>
        </Group>
      </header>
      <nav className={classes.navbar} data-opened={opened || undefined}>
        <SideMenu session={session} onNavigate={close} onLogout={() => void logout()} />
      </nav>
      <main className={classes.main}>
        <Suspense fallback={null}>
          <SubscriptionBanner session={session} />
        </Suspense>
        <ReportExportProvider>
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </ReportExportProvider>
      </main>
    </LiveAlarmsProvider>
  );
}
