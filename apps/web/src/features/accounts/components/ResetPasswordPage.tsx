import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { ACCOUNT_MESSAGES, MSG, requiredEmail, ResetPasswordForm, z } from '@sentinela/contract';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { useResetPassword } from '../api/accounts';
import { AuthCard } from './AuthCard';

// The e-mail comes in the navigation state from /forgot-password; typed here when the page is opened directly.
const Form = z.intersection(ResetPasswordForm, z.object({ email: requiredEmail }));
type Form = z.infer<typeof Form>;

function emailFromState(state: unknown): string {
  return state && typeof state === 'object' && 'email' in state && typeof state.email === 'string' ? state.email : '';
}

/** /reset-password (A6): the e-mailed code and the new password. */
export function ResetPasswordPage() {
  const stateEmail = emailFromState(useLocation().state);
  const reset = useResetPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Form>({ resolver: zodResolver(Form), defaultValues: { email: stateEmail, code: '', password: '', confirmPassword: '' } });

  const onSubmit = handleSubmit(({ email, code, password }) => reset.mutate({ email, code, password }));

  if (reset.isSuccess) {
    return (
      <AuthCard title="Alterar senha">
        <Alert color="green" title="Sucesso!" icon={<IconCircleCheck />}>
          {ACCOUNT_MESSAGES.passwordChanged}
        </Alert>
        <Button component={Link} to={paths.login}>
          Login
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Alterar senha">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {reset.isError && (
            <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
              {errorMessage(reset.error, MSG.internalError)}
            </Alert>
          )}
          {stateEmail ? (
            <Text size="sm" c="dimmed">
              Digite o código enviado para <b>{stateEmail}</b> e escolha uma nova senha.
            </Text>
          ) : (
            <TextInput label="Email" type="email" withAsterisk autoComplete="email" error={errors.email?.message} {...register('email')} />
          )}
          <TextInput
            label="Código de recuperação"
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
            <Button component={Link} to={paths.forgotPassword} variant="default">
              Voltar
            </Button>
            <Button type="submit" loading={reset.isPending}>
              Alterar
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
