import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { EditTravelDeviceBody, z, type TravelDevice } from '@sentinela/contract';
import { useForm } from 'react-hook-form';
import { useChangeReason } from '../../../components/compliance/use-change-reason';
import { LimitFields, limitsBody, limitsDefaults, limitsShape, refineLimits } from '../../../components/form/limits';
import { errorMessage } from '../../../lib/api-client';
import { useEditTravelDevice, type EditTravelDeviceInput } from '../api/edit-travel-device';
import { TRAVEL_MESSAGES } from '../messages';

interface EditTravelDeviceModalProps {
  travelId: string;
  device: TravelDevice | null;
  onClose: () => void;
}

/** "Configurações" of a device card (T9): its name and limits within this travel. */
export function EditTravelDeviceModal({ travelId, device, onClose }: EditTravelDeviceModalProps) {
  return (
    <Modal opened={device !== null} onClose={onClose} title="Configurações do dispositivo" centered size="lg">
      {device && <EditForm key={device.mac} travelId={travelId} device={device} onClose={onClose} />}
    </Modal>
  );
}

const EditSchema = z
  .object({ name: EditTravelDeviceBody.shape.name, ...limitsShape })
  .superRefine(refineLimits);

type EditFormInput = z.input<typeof EditSchema>;
type EditFormOutput = z.output<typeof EditSchema>;

export function toEditBody(form: EditFormOutput, travelId: string, deviceId: string): EditTravelDeviceInput {
  return { name: form.name, config: limitsBody(form), travel_id: travelId, device_id: deviceId };
}

function EditForm({ travelId, device, onClose }: { travelId: string; device: TravelDevice; onClose: () => void }) {
  const edit = useEditTravelDevice();
  // GxP mode (ADR 0061): a travel device's name and limits change with a reason.
  const reason = useChangeReason();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<EditFormInput, unknown, EditFormOutput>({
    resolver: zodResolver(EditSchema),
    defaultValues: { name: device.name, ...limitsDefaults(device.config) },
  });

  const onSubmit = handleSubmit((form) => {
    const why = reason.take();
    if (!why) return;
    edit.mutate({ ...toEditBody(form, travelId, device._id), ...why }, {
      onSuccess: () => {
        notifications.show({ color: 'teal', title: TRAVEL_MESSAGES.successTitle, message: TRAVEL_MESSAGES.deviceUpdated });
        onClose();
      },
      onError: (error) =>
        notifications.show({
          color: 'red',
          title: TRAVEL_MESSAGES.errorTitle,
          message: errorMessage(error, TRAVEL_MESSAGES.deviceUpdateError),
        }),
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <TextInput label="Nome" data-autofocus error={errors.name?.message} {...register('name')} />
        <Text size="sm" fw={600}>
          Limites nesta viagem (vazio: sem limite)
        </Text>
        <LimitFields control={control} />
        {reason.field}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={edit.isPending}>
            Cancelar
          </Button>
          <Button type="submit" loading={edit.isPending}>
            Salvar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
