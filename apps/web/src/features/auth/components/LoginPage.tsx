import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { LoginBody, MSG } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { paths, returnPath } from '../../../lib/paths';
import { useSignIn } from '../api/sign-in';

/** /login (A2). */
export function LoginPage() {
  const navigate = useNavigate();
  const { state } = useLocation();
  const signIn = useSignIn();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(LoginBody), defaultValues: { username: '', password: '' } });

  const onSubmit = handleSubmit((credentials) =>
    signIn.mutate(credentials, { onSuccess: () => void navigate(returnPath(state), { replace: true }) }),
  );

  return (
    <Paper withBorder shadow="sm" radius="md" p="xl" maw={420} mx="auto" mt="xl">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Title order={2} ta="center">
            Entrar
          </Title>
          {signIn.isError && (
            <Alert color="red" title={MSG.loginError} icon={<IconAlertCircle />}>
              {errorMessage(signIn.error, MSG.internalError)}
            </Alert>
          )}
          <TextInput
            label="Usuário"
            autoComplete="username"
            autoFocus
            error={errors.username?.message}
            {...register('username')}
          />
          <PasswordInput
            label="Senha"
            autoComplete="current-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <Button type="submit" loading={signIn.isPending} fullWidth>
            Entrar
          </Button>
          <Group justify="space-between">
            <Anchor component={Link} to={paths.forgotPassword} size="sm">
              Esqueci minha senha
            </Anchor>
            <Anchor component={Link} to={paths.reportValidator} size="sm">
              Validar relatório
            </Anchor>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
