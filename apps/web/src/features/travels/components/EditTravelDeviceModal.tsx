import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { EditTravelDeviceBody, z, type TravelDevice } from '@sentinela/contract';
import { Controller, useForm, type Control } from 'react-hook-form';
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

/** An optional number: empty means no limit (null). */
const optionalNumber = (label: string) =>
  z.union([z.number(), z.string()]).transform((value, ctx) => {
    if (typeof value === 'number') return value;
    const text = value.trim().replace(',', '.');
    if (text === '' || text === '-') return null;
    const number = Number(text);
    if (Number.isNaN(number)) {
      ctx.addIssue({ code: 'custom', message: `${label} deve ser um número.` });
      return z.NEVER;
    }
    return number;
  });

const EditSchema = z
  .object({
    name: EditTravelDeviceBody.shape.name,
    temperatureMin: optionalNumber('Temperatura mínima'),
    temperatureMax: optionalNumber('Temperatura máxima'),
    humidityMin: optionalNumber('Umidade mínima'),
    humidityMax: optionalNumber('Umidade máxima'),
  })
  .superRefine((form, ctx) => {
    if (form.temperatureMin !== null && form.temperatureMax !== null && form.temperatureMin >= form.temperatureMax) {
      ctx.addIssue({ code: 'custom', path: ['temperatureMax'], message: 'A temperatura mínima deve ser menor que a máxima.' });
    }
    if (form.humidityMin !== null && form.humidityMax !== null && form.humidityMin >= form.humidityMax) {
      ctx.addIssue({ code: 'custom', path: ['humidityMax'], message: 'A umidade mínima deve ser menor que a máxima.' });
    }
  });

type EditFormInput = z.input<typeof EditSchema>;
type EditFormOutput = z.output<typeof EditSchema>;

export function toEditBody(form: EditFormOutput, travelId: string, deviceId: string): EditTravelDeviceInput {
  return {
    name: form.name,
    config: {
      temperature: { min: form.temperatureMin, max: form.temperatureMax },
      humidity: { min: form.humidityMin, max: form.humidityMax },
    },
    travel_id: travelId,
    device_id: deviceId,
  };
}

function NumberField({
  control,
  name,
  label,
}: {
  control: Control<EditFormInput, unknown, EditFormOutput>;
  name: Exclude<keyof EditFormInput, 'name'>;
  label: string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <NumberInput
          label={label}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          ref={field.ref}
          decimalSeparator=","
          decimalScale={2}
          hideControls
          inputMode="decimal"
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

function EditForm({ travelId, device, onClose }: { travelId: string; device: TravelDevice; onClose: () => void }) {
  const edit = useEditTravelDevice();
  const value = (number: number | null) => (number === null ? '' : number);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<EditFormInput, unknown, EditFormOutput>({
    resolver: zodResolver(EditSchema),
    defaultValues: {
      name: device.name,
      temperatureMin: value(device.config.temperature.min),
      temperatureMax: value(device.config.temperature.max),
      humidityMin: value(device.config.humidity.min),
      humidityMax: value(device.config.humidity.max),
    },
  });

  const onSubmit = handleSubmit((form) =>
    edit.mutate(toEditBody(form, travelId, device._id), {
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
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <TextInput label="Nome" data-autofocus error={errors.name?.message} {...register('name')} />
        <Text size="sm" fw={600}>
          Limites nesta viagem (vazio: sem limite)
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="xs">
          <NumberField control={control} name="temperatureMin" label="Temperatura mínima (°C)" />
          <NumberField control={control} name="temperatureMax" label="Temperatura máxima (°C)" />
          <NumberField control={control} name="humidityMin" label="Umidade mínima (%)" />
          <NumberField control={control} name="humidityMax" label="Umidade máxima (%)" />
        </SimpleGrid>
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
