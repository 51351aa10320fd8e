import { Alert, Button, Center, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useGatewayConnection } from '../api/gateways';
import { ConnectionInstructions, KEY_PLACEHOLDER } from './ConnectionInstructions';

/**
 * "Como conectar um gateway", on the page at any time: the same instructions as at creation (HTTP, MQTT, Ruuvi
 * Gateway), with a placeholder where the key goes, for a gateway set up later than its key was made. Asks the
 * server's addresses only when opened.
 */
export function HowToConnect() {
  const [open, setOpen] = useState(false);
  return (
    <Stack gap="xs">
      <Button
        variant="subtle"
        w="fit-content"
        px={0}
        rightSection={open ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
        onClick={() => setOpen((value) => !value)}
        aria-expanded={open}
      >
        Como conectar um gateway
      </Button>
      {open && <Instructions />}
    </Stack>
  );
}

function Instructions() {
  const connection = useGatewayConnection();
  const [now] = useState(() => new Date());
  return (
    <Paper withBorder radius="md" p="md" data-testid="how-to-connect">
      {connection.isPending ? (
        <Center>
          <Loader aria-label="Carregando" />
        </Center>
      ) : connection.isError ? (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(connection.error, 'Não foi possível carregar os endereços de envio.')}
        </Alert>
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            Troque {KEY_PLACEHOLDER} pela chave mostrada ao criar o gateway. Perdeu a chave? Revogue o gateway e crie outro.
          </Text>
          <ConnectionInstructions connection={connection.data} gatewayKey={null} now={now} />
        </Stack>
      )}
    </Paper>
  );
}
