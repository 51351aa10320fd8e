import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { ACCOUNT_MESSAGES, MSG, requiredEmail, ResetPasswordForm, z } from '@sentinela/contract';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { useResetPassword } from '../api/accounts';
import { AuthCard } from './AuthCard';

// The e-mail comes in the navigation state from /forgot-password, or in the link of an e-mail (`?email=`); typed here
// when the page is opened bare.
const Form = z.intersection(ResetPasswordForm, z.object({ email: requiredEmail }));
type Form = z.infer<typeof Form>;

function emailFromState(state: unknown): string {
  return state && typeof state === 'object' && 'email' in state && typeof state.email === 'string' ? state.email : '';
}

/**
 * /reset-password (A6): the e-mailed code and the new password. A user created by an administrator comes from the
 * welcome e-mail (`?email=…&first=1`): there it is the first password they choose, and the screen says so.
 */
export function ResetPasswordPage() {
  const [query] = useSearchParams();
  const stateEmail = emailFromState(useLocation().state) || (query.get('email') ?? '').trim();
  const first = query.get('first') === '1';
  const title = first ? 'Criar senha' : 'Alterar senha';
  const reset = useResetPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Form>({ resolver: zodResolver(Form), defaultValues: { email: stateEmail, code: '', password: '', confirmPassword: '' } });

  const onSubmit = handleSubmit(({ email, code, password }) => reset.mutate({ email, code, password }));

  if (reset.isSuccess) {
    return (
      <AuthCard title={title}>
        <Alert color="green" title="Sucesso!" icon={<IconCircleCheck />}>
          {first ? 'Sua senha foi criada com sucesso. Entre com o seu usuário e a nova senha.' : ACCOUNT_MESSAGES.passwordChanged}
        </Alert>
        <Button component={Link} to={paths.login}>
          Login
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={title}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {reset.isError && (
            <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
              {errorMessage(reset.error, MSG.internalError)}
            </Alert>
          )}
          {stateEmail ? (
            <Text size="sm" c="dimmed">
              {first ? (
                <>
                  Bem-vindo ao Sentinela! Digite o código enviado para <b>{stateEmail}</b> e escolha a sua senha.
                </>
              ) : (
                <>
                  Digite o código enviado para <b>{stateEmail}</b> e escolha uma nova senha.
                </>
              )}
            </Text>
          ) : (
            <TextInput label="Email" type="email" withAsterisk autoComplete="email" error={errors.email?.message} {...register('email')} />
          )}
          <TextInput
            label={first ? 'Código recebido por e-mail' : 'Código de recuperação'}
            withAsterisk
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            error={errors.code?.message}
            {...register('code')}
          />
          <PasswordInput label="Senha" withAsterisk autoComplete="new-password" error={errors.password?.message} {...register('password')} />
          <PasswordInput
            label="Confirmar Senha"
            withAsterisk
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            {...register('confirmPassword')}
          />
          <Group justify="space-between">
            <Button component={Link} to={first ? paths.login : paths.forgotPassword} variant="default">
              Voltar
            </Button>
            <Button type="submit" loading={reset.isPending}>
              {first ? 'Criar senha' : 'Alterar'}
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
