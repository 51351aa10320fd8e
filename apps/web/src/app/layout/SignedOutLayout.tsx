import { Anchor, Box, Burger, Button, Container, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { paths } from '../../lib/paths';
import { publicScreens } from '../screens';
import { PageFallback } from './PageFallback';

/**
 * Signed-out shell (P6): brand and the signed-out menu in a header. Small screens get the same entries behind a
 * burger, unfolding under the header. A plain sticky header rather than Mantine's AppShell and Menu: their code
 * (scroll locking, popover positioning) would weigh on every visitor's first load (ADR 0040).
 */
export function SignedOutLayout() {
  const { pathname } = useLocation();
  const [opened, { toggle, close }] = useDisclosure(false);

  return (
    <>
      <Box
        component="header"
        pos="sticky"
        top={0}
        bg="var(--mantine-color-body)"
        style={{ zIndex: 100, borderBottom: 'calc(0.0625rem * var(--mantine-scale)) solid var(--mantine-color-gray-3)' }}
      >
        <Group h={56} px="md" justify="space-between" wrap="nowrap">
          <Anchor component={Link} to={paths.home} fw={700} size="lg" underline="never" onClick={close}>
            Sentinela
          </Anchor>
          <Group gap="xs" component="nav" aria-label="Menu" visibleFrom="sm">
            {publicScreens.map((item) => (
              <Button key={item.path} component={Link} to={item.path} variant={pathname === item.path ? 'light' : 'subtle'}>
                {item.label}
              </Button>
            ))}
          </Group>
          <Burger hiddenFrom="sm" opened={opened} onClick={toggle} size="sm" aria-label="Abrir menu" />
        </Group>
        {opened && (
          <Stack gap="xs" p="xs" component="nav" aria-label="Menu principal" hiddenFrom="sm">
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
      </Box>
      <Box component="main" p="md">
        <Container size="lg">
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </Container>
      </Box>
    </>
  );
}
