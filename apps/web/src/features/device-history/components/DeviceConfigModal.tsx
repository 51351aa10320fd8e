import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { UpdateDeviceNameBody, z, type Device } from '@sentinela/contract';
import { Controller, useForm, type Control } from 'react-hook-form';
import { errorMessage } from '../../../lib/api-client';
import { useConfigureDevice, type ConfigureDeviceBody } from '../api/configure-device';
import { parseNumberField } from '../filter';
import { HISTORY_MESSAGES } from '../messages';

interface DeviceConfigModalProps {
  device: Device | null;
  opened: boolean;
  onClose: () => void;
}

/** "Configurações": name, limits and alarm delays of a device (D4, D6). */
export function DeviceConfigModal({ device, opened, onClose }: DeviceConfigModalProps) {
  return (
    <Modal opened={opened && device !== null} onClose={onClose} title="Configurações do dispositivo" centered size="lg">
      {device && <DeviceConfigForm key={device._id} device={device} onClose={onClose} />}
    </Modal>
  );
}

const numberField = z.union([z.number(), z.string()]);

/** An optional number: empty clears it (null). */
const optionalNumber = (label: string) =>
  numberField.transform((value, ctx) => {
    const number = parseNumberField(value);
    if (Number.isNaN(number)) {
      ctx.addIssue({ code: 'custom', message: `${label} deve ser um número.` });
      return z.NEVER;
    }
    return number;
  });

const minutes = (label: string, min: number, max: number, required: boolean) =>
  numberField.transform((value, ctx) => {
    const number = parseNumberField(value);
    if (number === null && !required) return null;
    if (number === null || Number.isNaN(number) || !Number.isInteger(number) || number < min || number > max) {
      ctx.addIssue({ code: 'custom', message: `${label}: informe um número inteiro de ${min} a ${max}.` });
      return z.NEVER;
    }
    return number;
  });

const ConfigForm = z
  .object({
    name: UpdateDeviceNameBody.shape.name,
    temperatureMin: optionalNumber('Temperatura mínima'),
    temperatureMax: optionalNumber('Temperatura máxima'),
    humidityMin: optionalNumber('Umidade mínima'),
    humidityMax: optionalNumber('Umidade máxima'),
    outOfRangeMinutes: minutes('Minutos fora da faixa', 0, 1440, true),
    noDataMinutes: minutes('Minutos sem dados', 1, 10080, false),
  })
  .superRefine((form, ctx) => {
    // The server's rules and messages, checked before the round trip.
    if (form.temperatureMin !== null && form.temperatureMax !== null && form.temperatureMin >= form.temperatureMax) {
      ctx.addIssue({ code: 'custom', path: ['temperatureMax'], message: 'A temperatura mínima deve ser menor que a máxima.' });
    }
    if (form.humidityMin !== null && form.humidityMax !== null && form.humidityMin >= form.humidityMax) {
      ctx.addIssue({ code: 'custom', path: ['humidityMax'], message: 'A umidade mínima deve ser menor que a máxima.' });
    }
  });

type ConfigFormInput = z.input<typeof ConfigForm>;
type ConfigFormOutput = z.output<typeof ConfigForm>;

export function toConfigureBody(form: ConfigFormOutput): ConfigureDeviceBody {
  return {
    name: form.name,
    config: {
      temperature: { min: form.temperatureMin, max: form.temperatureMax },
      humidity: { min: form.humidityMin, max: form.humidityMax },
      out_of_range_minutes: form.outOfRangeMinutes ?? 0,
      no_data_minutes: form.noDataMinutes,
    },
  };
}

function defaultsOf(device: Device): ConfigFormInput {
  const value = (number: number | null | undefined) => (number === null || number === undefined ? '' : number);
  return {
    name: device.name,
    temperatureMin: value(device.config.temperature.min),
    temperatureMax: value(device.config.temperature.max),
    humidityMin: value(device.config.humidity.min),
    humidityMax: value(device.config.humidity.max),
    outOfRangeMinutes: device.config.out_of_range_minutes ?? 0,
    noDataMinutes: value(device.config.no_data_minutes),
  };
}

function NumberField({
  control,
  name,
  label,
  description,
  decimals,
}: {
  control: Control<ConfigFormInput, unknown, ConfigFormOutput>;
  name: Exclude<keyof ConfigFormInput, 'name'>;
  label: string;
  description?: string;
  decimals: boolean;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <NumberInput
          label={label}
          description={description}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          ref={field.ref}
          decimalSeparator=","
          decimalScale={decimals ? 2 : 0}
          allowDecimal={decimals}
          allowNegative={decimals}
          hideControls
          inputMode={decimals ? 'decimal' : 'numeric'}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

function DeviceConfigForm({ device, onClose }: { device: Device; onClose: () => void }) {
  const configure = useConfigureDevice(device._id, device.mac);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<ConfigFormInput, unknown, ConfigFormOutput>({
    resolver: zodResolver(ConfigForm),
    defaultValues: defaultsOf(device),
  });

  const onSubmit = handleSubmit((form) =>
    configure.mutate(toConfigureBody(form), {
      onSuccess: () => {
        notifications.show({ color: 'teal', title: 'Sucesso!', message: HISTORY_MESSAGES.deviceUpdated });
        onClose();
      },
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, HISTORY_MESSAGES.deviceUpdateError) }),
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <TextInput label="Nome" data-autofocus error={errors.name?.message} {...register('name')} />
        <Text size="sm" fw={600}>
          Limites (vazio: sem limite)
        </Text>
        <SimpleGrid cols={2} spacing="sm" verticalSpacing="xs">
          <NumberField control={control} name="temperatureMin" label="Temperatura mínima (°C)" decimals />
          <NumberField control={control} name="temperatureMax" label="Temperatura máxima (°C)" decimals />
          <NumberField control={control} name="humidityMin" label="Umidade mínima (%)" decimals />
          <NumberField control={control} name="humidityMax" label="Umidade máxima (%)" decimals />
        </SimpleGrid>
        <Text size="sm" fw={600}>
          Alarmes
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="xs">
          <NumberField
            control={control}
            name="outOfRangeMinutes"
            label="Fora da faixa por (minutos)"
            description="Alarme quando a leitura fica fora dos limites por esse tempo (0: imediato)."
            decimals={false}
          />
          <NumberField
            control={control}
            name="noDataMinutes"
            label="Sem dados por (minutos)"
            description="Alarme quando o dispositivo não envia leituras por esse tempo (vazio: desativado)."
            decimals={false}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={configure.isPending}>
            Cancelar
          </Button>
          <Button type="submit" loading={configure.isPending}>
            Salvar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
