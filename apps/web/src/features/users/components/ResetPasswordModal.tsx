import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { AdminResetPasswordBody, MSG, type UserDetail } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../../lib/api-client';
import { useResetUserPassword } from '../api/reset-password';

interface ResetPasswordModalProps {
  user: UserDetail | null;
  opened: boolean;
  onClose: () => void;
}

/** "Alterar senha" of the enterprise users screen (M4): the admin reset of spec 001 §5. */
export function ResetPasswordModal({ user, opened, onClose }: ResetPasswordModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Alterar senha" centered>
      {user && <ResetPasswordForm key={user._id} user={user} onClose={onClose} />}
    </Modal>
  );
}

function ResetPasswordForm({ user, onClose }: { user: UserDetail; onClose: () => void }) {
  const reset = useResetUserPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<AdminResetPasswordBody>({ resolver: zodResolver(AdminResetPasswordBody), defaultValues: { password: '' } });

  const onSubmit = handleSubmit(({ password }) =>
    reset.mutate(
      { userId: user._id, password },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', title: MSG.successTitle, message: MSG.passwordResetByAdmin });
          onClose();
        },
      },
    ),
  );

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <Text size="sm">
          Nova senha de <b>{user.name}</b> ({user.username}). As sessões abertas desse usuário serão encerradas.
        </Text>
        {reset.isError && (
          <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
            {errorMessage(reset.error, 'Não foi possível alterar a senha.')}
          </Alert>
        )}
        <PasswordInput
          label="Nova senha"
          withAsterisk
          autoComplete="new-password"
          data-autofocus
          description="No mínimo 8 caracteres, com letras, números e um destes caracteres especiais: @$!%*/#?&"
          error={errors.password?.message}
          {...register('password')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={reset.isPending}>
            Cancelar
          </Button>
          <Button type="submit" loading={reset.isPending}>
            Salvar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
