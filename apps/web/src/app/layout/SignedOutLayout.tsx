import { Anchor, AppShell, Burger, Button, Container, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { paths } from '../../lib/paths';
import { publicScreens } from '../screens';
import { PageFallback } from './PageFallback';

/**
 * Signed-out shell (P6): brand and the signed-out menu in a header. Small screens get the same entries behind a
 * burger, in the shell's side panel as in the signed-in shell (no dropdown menu: its positioning code would weigh on
 * every visitor's first load, ADR 0040).
 */
export function SignedOutLayout() {
  const { pathname } = useLocation();
  const [opened, { toggle, close }] = useDisclosure(false);

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 260, breakpoint: 'sm', collapsed: { desktop: true, mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Anchor component={Link} to={paths.home} fw={700} size="lg" underline="never" onClick={close}>
            Sentinela
          </Anchor>
          <Group gap="xs" component="nav" aria-label="Menu" visibleFrom="sm">
            {publicScreens.map((item) => (
              <Button
                key={item.path}
                component={Link}
                to={item.path}
                variant={pathname === item.path ? 'light' : 'subtle'}
              >
                {item.label}
              </Button>
            ))}
          </Group>
          <Burger hiddenFrom="sm" opened={opened} onClick={toggle} size="sm" aria-label="Abrir menu" />
        </Group>
      </AppShell.Header>
      {/* Rendered only while open: the header's links are the menu at every other moment. */}
      <AppShell.Navbar p="xs" hiddenFrom="sm">
        {opened && (
        <Stack gap="xs" component="nav" aria-label="Menu principal">
          {publicScreens.map((item) => (
            <Button
              key={item.path}
              component={Link}
              to={item.path}
              variant={pathname === item.path ? 'light' : 'subtle'}
              justify="flex-start"
              onClick={close}
            >
              {item.label}
            </Button>
          ))}
        </Stack>
        )}
      </AppShell.Navbar>
      <AppShell.Main>
        <Container size="lg">
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
