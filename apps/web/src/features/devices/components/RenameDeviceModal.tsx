import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { UpdateDeviceNameBody, type Device } from '@sentinela/contract';
import { useForm } from 'react-hook-form';
import { useChangeReason } from '../../../components/compliance/use-change-reason';
import { useRenameDevice } from '../api/rename-device';

interface RenameDeviceModalProps {
  device: Device | null;
  onClose: () => void;
}

/** "Alterar nome do Dispositivo" (D1, D4). */
export function RenameDeviceModal({ device, onClose }: RenameDeviceModalProps) {
  return (
    <Modal opened={device !== null} onClose={onClose} title="Alterar nome do Dispositivo" centered>
      {device && <RenameDeviceForm key={device._id} device={device} onClose={onClose} />}
    </Modal>
  );
}

function RenameDeviceForm({ device, onClose }: { device: Device; onClose: () => void }) {
  const rename = useRenameDevice();
  const reason = useChangeReason();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(UpdateDeviceNameBody), defaultValues: { name: device.name } });

  const onSubmit = handleSubmit(({ name }) => {
    const why = reason.take();
    if (!why) return;
    rename.mutate(
      { mac: device.mac, name, ...why },
      {
        onSuccess: () => notifications.show({ color: 'teal', title: 'Sucesso!', message: 'Nome alterado com Sucesso!' }),
        onError: () => notifications.show({ color: 'red', title: 'Erro!', message: 'Não foi possível alterar o nome' }),
        onSettled: onClose,
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <TextInput label="Nome" data-autofocus error={errors.name?.message} {...register('name')} />
        {reason.field}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={rename.isPending}>
            Cancelar
          </Button>
          <Button type="submit" loading={rename.isPending}>
            Salvar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
