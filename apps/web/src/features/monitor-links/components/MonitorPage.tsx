import { Alert, Badge, Box, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconLink, IconWifiOff } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { Logo } from '../../../components/Logo';
import { formatDateTime, formatTimeOfDay } from '../../../lib/format';
import { usePageTitle } from '../../../lib/page-title';
import { useMonitor } from '../live/use-monitor';
import { MonitorCards } from './MonitorCards';

/**
 * /monitor/{token}: the full-screen, read-only monitor of a wall display (ADR 26). No session, no menu, no idle
 * timeout: it sits outside the app's root (which sends expired sessions to /login) and authenticates with the
 * link's token alone. Cards are coloured like the travel cards and turn neutral when a device goes quiet; when the link expires or is revoked the page says so.
 */
export function MonitorPage() {
  const { token = '' } = useParams();
  const state = useMonitor(token);
  usePageTitle(state.kind === 'live' || state.kind === 'offline' ? `${state.view.name} · Monitoramento` : 'Monitoramento');

  if (state.kind === 'loading') {
    return (
      <Center mih="100vh">
        <Loader aria-label="Carregando" />
      </Center>
    );
  }
  if (state.kind === 'closed' || state.kind === 'failed') {
    return (
      <Center mih="100vh" p="md">
        <Stack align="center" gap="lg" maw={560} ta="center" data-testid="monitor-closed">
          <Logo size="lg" />
          <IconLink size={64} color="var(--mantine-color-gray-5)" aria-hidden />
          <Title order={1} fz={{ base: 26, sm: 34 }}>
            {state.message}
          </Title>
          <Text c="dimmed" fz="lg">
            {state.kind === 'closed'
              ? 'Peça ao administrador da empresa um novo link de monitoramento.'
              : 'Tentando novamente em instantes.'}
          </Text>
        </Stack>
      </Center>
    );
  }

  const { view } = state;
  return (
    <Box p={{ base: 'sm', sm: 'lg' }} mih="100vh" bg="gray.1">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <div style={{ minWidth: 0 }}>
            <Title order={1} fz={{ base: 24, sm: 32 }} lh={1.15}>
              {view.name}
            </Title>
            <Text c="dimmed" size="sm">
              {view.enterprise.name} · somente leitura · válido até {formatDateTime(view.expires_at)}
            </Text>
          </div>
          <Group gap="sm" wrap="nowrap">
            {state.kind === 'offline' ? (
              <Badge color="orange" size="lg" leftSection={<IconWifiOff size={14} />} data-testid="monitor-status">
                Sem conexão
              </Badge>
            ) : (
              <Badge color="teal" size="lg" variant="dot" data-testid="monitor-status">
                Ao vivo
              </Badge>
            )}
            <Text fw={700} fz={{ base: 'md', sm: 'xl' }} data-testid="monitor-refreshed">
              Atualizado às {formatTimeOfDay(view.generated_at)}
            </Text>
          </Group>
        </Group>
        {view.devices.length === 0 ? (
          <Alert color="gray" icon={<IconAlertCircle />} title="Nada para mostrar">
            Os dispositivos e viagens deste link não estão mais disponíveis.
          </Alert>
        ) : (
          <MonitorCards devices={view.devices} />
        )}
      </Stack>
    </Box>
  );
}
