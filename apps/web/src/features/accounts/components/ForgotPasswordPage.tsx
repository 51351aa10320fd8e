import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { MSG, RequestPasswordResetBody } from '@sentinela/contract';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { useRequestPasswordReset } from '../api/accounts';
import { AuthCard } from './AuthCard';

/** /forgot-password (A6): asks the server to e-mail a recovery code, then on to /reset-password with the e-mail. */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const request = useRequestPasswordReset();
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors },
  } = useForm<RequestPasswordResetBody>({ resolver: zodResolver(RequestPasswordResetBody), defaultValues: { email: '' } });

  const onSubmit = handleSubmit((body) => request.mutate(body));

  if (request.isSuccess) {
    return (
      <AuthCard title="Esqueci minha senha">
        <Alert color="green" title="Sucesso!" icon={<IconMailCheck />}>
          {request.data.message}
        </Alert>
        <Button onClick={() => void navigate(paths.resetPassword, { state: { email: getValues('email') } })}>Alterar senha</Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Esqueci minha senha">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {request.isError && (
            <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
              {errorMessage(request.error, MSG.internalError)}
            </Alert>
          )}
          <Text size="sm" c="dimmed">
            Informe o e-mail da sua conta. Enviaremos um código para você escolher uma nova senha.
          </Text>
          <TextInput label="Email" type="email" required autoComplete="email" autoFocus error={errors.email?.message} {...register('email')} />
          <Group justify="space-between">
            <Button component={Link} to={paths.login} variant="default">
              Voltar
            </Button>
            <Button type="submit" loading={request.isPending}>
              Enviar
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
