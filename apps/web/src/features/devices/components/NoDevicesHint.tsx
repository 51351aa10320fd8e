import { Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDevicesPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { pluralize } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { REGISTRATION_STEPS, useIsEnterpriseAdmin, useRegistrationSteps } from '../../../lib/registration';

/**
 * Meus Dispositivos with no device, for someone of an enterprise (issue 26, ADR 84): for its administrators, what is
 * missing before sensors show here and the way to /complete-register (theirs only); for others, who links devices. Loaded only for an empty list, so the screen's first load does not
 * carry it.
 */
export default function NoDevicesHint() {
  return useIsEnterpriseAdmin() ? <AdministratorHint /> : <UserHint />;
}

function HintCard({ children }: { children: React.ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" data-testid="no-devices-hint">
      <Group align="flex-start" wrap="nowrap" gap="md">
        <ThemeIcon size={44} radius="xl" variant="light" visibleFrom="xs">
          <IconDevicesPlus size={24} />
        </ThemeIcon>
        <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
          {children}
        </Stack>
      </Group>
    </Card>
  );
}

function AdministratorHint() {
  const states = useRegistrationSteps();
  const missing = REGISTRATION_STEPS.filter((step) => states[step.key] === 'todo');
  const known = REGISTRATION_STEPS.every((step) => states[step.key] === 'done' || states[step.key] === 'todo');
  const complete = known && missing.length === 0;
  return (
    <HintCard>
      <Title order={3} size="h4">
        Sua empresa ainda não tem dispositivos
      </Title>
      {complete ? (
        <Text>
          O cadastro da empresa está concluído. Os sensores aparecem aqui assim que forem vinculados à sua empresa, com a
          última leitura de cada um.
        </Text>
      ) : (
        <Text>
          Conclua o cadastro da empresa (confirmação do e-mail, endereço e pagamento) para começar a monitorar. Depois, os
          sensores vinculados à sua empresa aparecem aqui, com a última leitura de cada um.
        </Text>
      )}
      {known && missing.length > 0 && (
        <Text size="sm" c="dimmed" data-testid="no-devices-missing">
          {missing.length === 1 ? 'Falta' : 'Faltam'} {pluralize(missing.length, 'passo', 'passos')}:{' '}
          {missing.map((step) => step.label.toLowerCase()).join(', ')}.
        </Text>
      )}
      <Group>
        <Button component={Link} to={paths.completeRegister} variant={complete ? 'default' : 'filled'}>
          {complete ? 'Ver cadastro' : 'Concluir cadastro'}
        </Button>
      </Group>
    </HintCard>
  );
}

function UserHint() {
  return (
    <HintCard>
      <Title order={3} size="h4">
        Nenhum dispositivo vinculado a você
      </Title>
      <Text>
        Os administradores da sua empresa escolhem os dispositivos de cada usuário. Peça a um deles para vincular os seus:
        eles aparecem aqui, com a última leitura de cada um.
      </Text>
    </HintCard>
  );
}
