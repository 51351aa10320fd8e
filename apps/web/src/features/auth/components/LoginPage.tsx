import { Alert, Anchor, Button, Group, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { MSG, type LoginBody } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useForm, type Resolver } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { paths, returnPath } from '../../../lib/paths';
import { loadSignIn, useSignIn } from '../api/use-sign-in';

// zod, the login schema and the sign-in calls are not needed to paint the form: they load when the user starts
// typing (or submits), so /login's first load stays small (issue 15 item 5, ADR 0040).
const loadLoginCheck = () => import('./login-check');
const resolver: Resolver<LoginBody> = async (values, context, options) =>
  (await loadLoginCheck()).loginResolver(values, context, options);
function preloadSignIn() {
  void loadLoginCheck();
  void loadSignIn();
}

/** /login (A2). */
export function LoginPage() {
  const navigate = useNavigate();
  const { state } = useLocation();
  const signIn = useSignIn();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginBody>({ resolver, defaultValues: { username: '', password: '' } });

  const onSubmit = handleSubmit((credentials) =>
    signIn.mutate(credentials, { onSuccess: () => void navigate(returnPath(state), { replace: true }) }),
  );

  return (
    <Paper withBorder shadow="sm" radius="md" p="xl" maw={420} mx="auto" mt="xl">
      <form onSubmit={onSubmit} onInput={preloadSignIn} noValidate>
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
