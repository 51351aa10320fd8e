import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../lib/paths';

export function NotFoundPage() {
  return (
    <Stack align="center" mt="xl" gap="md">
      <Title order={2}>Página não encontrada</Title>
      <Text c="dimmed">O endereço acessado não existe.</Text>
      <Button component={Link} to={paths.home}>
        Voltar ao início
      </Button>
    </Stack>
  );
}
