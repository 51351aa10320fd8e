import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { ChangePasswordForm, PROFILE_MESSAGES } from '@sentinela/contract';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../../lib/api-client';
import { useChangePassword } from '../api/profile';

/** The change-password modal of /profile: closes only by its button (spec 000 §2). */
export function ChangePasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ChangePasswordForm>({ resolver: zodResolver(ChangePasswordForm), defaultValues: { current_password: '', password: '', confirmPassword: '' } });

  const close = () => {
    reset();
    change.reset();
    onClose();
  };
  const onSubmit = handleSubmit(({ current_password, password }) => change.mutate({ current_password, password }));

  return (
    <Modal opened={opened} onClose={close} title="Alterar senha" closeOnClickOutside={false} closeOnEscape={false} centered>
      {change.isSuccess ? (
        <Stack>
          <Alert color="green" title="Sucesso!" icon={<IconCircleCheck />}>
            {PROFILE_MESSAGES.passwordChanged}
          </Alert>
          <Text size="sm" c="dimmed">
            As suas outras sessões foram encerradas.
          </Text>
          <Button onClick={close}>Fechar</Button>
        </Stack>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            {change.isError && (
              <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
                {PROFILE_MESSAGES.passwordChangeFailed} {errorMessage(change.error, '')}
              </Alert>
            )}
            <PasswordInput label="Senha atual" withAsterisk autoComplete="current-password" error={errors.current_password?.message} {...register('current_password')} />
            <PasswordInput
              label="Nova senha"
              withAsterisk
              autoComplete="new-password"
              description="No mínimo 8 caracteres, com letras, números e um destes caracteres especiais: @$!%*#?&"
              error={errors.password?.message}
              {...register('password')}
            />
            <PasswordInput label="Confirmar Senha" withAsterisk autoComplete="new-password" error={errors.confirmPassword?.message} {...register('confirmPassword')} />
            <Group justify="flex-end">
              <Button type="submit" loading={change.isPending}>
                Alterar senha
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
