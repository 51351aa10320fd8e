import { Anchor, AppShell, Burger, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { useLogout } from '../../features/auth/api/logout';
import { ReportExportProvider } from '../../components/report-export/export-provider';
import { SIGNED_IN_HOME } from '../../lib/paths';
import { useRequiredSession } from '../../lib/session';
import { PageFallback } from './PageFallback';
import { SideMenu } from './SideMenu';

/**
 * Signed-in shell (P6): a side menu from 768px up; below it, a top bar whose burger opens the same menu.
 */
export function SignedInLayout() {
  const session = useRequiredSession();
  const logout = useLogout();
  const [opened, { toggle, close }] = useDisclosure(false);

  return (
    <AppShell
      header={{ height: { base: 56, sm: 0 } }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header hiddenFrom="sm">
        <Group h="100%" px="md" justify="space-between">
          <Anchor component={Link} to={SIGNED_IN_HOME} fw={700} size="lg" underline="never" onClick={close}>
            Sentinela
          </Anchor>
          <Burger opened={opened} onClick={toggle} size="sm" aria-label="Abrir menu" />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar>
        <SideMenu session={session} onNavigate={close} onLogout={() => void logout()} />
      </AppShell.Navbar>
      <AppShell.Main>
        <ReportExportProvider>
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </ReportExportProvider>
      </AppShell.Main>
    </AppShell>
  );
}
