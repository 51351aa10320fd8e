import '@mantine/core/styles/NavLink.css';
import { Box, Divider, NavLink, Stack, Text } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { EMAIL_MAX_LENGTH, ENTERPRISE_NAME_MAX_LENGTH, truncate } from '../../lib/format';
import type { Session } from '../../lib/session';
import { menuFor, screens, type MenuScreen } from '../screens';

interface SideMenuProps {
  session: Session;
  onLogout: () => void;
  /** Called after a link is followed (closes the menu on small screens). */
  onNavigate?: () => void;
  /** The menu entries to filter by profile; the built screens by default. */
  entries?: readonly MenuScreen[];
}

/** Signed-in menu (P6): who is signed in, the screens the profile may open, and Sair. */
export function SideMenu({ session, onLogout, onNavigate, entries = screens }: SideMenuProps) {
  const { pathname } = useLocation();
  const { user, enterprise } = session;
  const items = menuFor(user.profile._id, entries, !!enterprise._id);

  return (
    <Stack data-testid="side-menu" gap={0} h="100%">
      <Box p="md">
        <Text fw={700} truncate="end">
          {user.name}
        </Text>
        <Text size="sm" c="dimmed" title={user.email}>
          {truncate(user.email, EMAIL_MAX_LENGTH)}
        </Text>
        {enterprise.name && (
          <Text size="sm" c="dimmed" title={enterprise.name}>
            {truncate(enterprise.name, ENTERPRISE_NAME_MAX_LENGTH)}
          </Text>
        )}
      </Box>
      <Divider />
      {/* minHeight 0: a flex item would otherwise grow to its content, and a long menu (the super admin's, on a
          phone) would run off the screen instead of scrolling. The browser's own scrolling: Mantine's ScrollArea
          would bring the popovers' positioning library into the shell's first load (ADR 0040). */}
      <Box style={{ flex: 1, minHeight: 0, overflowY: 'auto' }} p="xs">
        <nav aria-label="Menu principal">
          {items.map((item) => (
            <NavLink
              key={item.path}
              component={Link}
              to={item.path}
              label={item.label}
              active={pathname === item.path}
              onClick={onNavigate}
            />
          ))}
        </nav>
      </Box>
      <Divider />
      <Box p="xs">
        <NavLink component="button" type="button" label="Sair" leftSection={<IconLogout size={16} />} onClick={onLogout} />
      </Box>
    </Stack>
  );
}
