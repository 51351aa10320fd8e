import { Anchor, AppShell, Burger, Button, Container, Group, Menu } from '@mantine/core';
import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { paths } from '../../lib/paths';
import { publicScreens } from '../screens';
import { PageFallback } from './PageFallback';

/** Signed-out shell (P6): brand and the signed-out menu in a header. */
export function SignedOutLayout() {
  const { pathname } = useLocation();

  return (
    <AppShell header={{ height: 56 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Anchor component={Link} to={paths.home} fw={700} size="lg" underline="never">
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
          {/* Small screens: the same entries behind a burger, so the header never wraps over the page. */}
          <Menu position="bottom-end" width={200}>
            <Menu.Target>
              <Burger hiddenFrom="sm" aria-label="Abrir menu" size="sm" />
            </Menu.Target>
            <Menu.Dropdown>
              {publicScreens.map((item) => (
                <Menu.Item key={item.path} component={Link} to={item.path}>
                  {item.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </AppShell.Header>
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
