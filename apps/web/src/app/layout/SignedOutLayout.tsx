import { Anchor, AppShell, Button, Container, Group } from '@mantine/core';
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
          <Group gap="xs" component="nav" aria-label="Menu">
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
