import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { UpdateDeviceNameBody, z, type Device } from '@sentinela/contract';
import { useForm } from 'react-hook-form';
import { useChangeReason } from '../../../components/compliance/use-change-reason';
import { LimitFields, limitsBody, limitsDefaults, limitsShape, refineLimits } from '../../../components/form/limits';
import { NumberField } from '../../../components/form/NumberField';
import { errorMessage } from '../../../lib/api-client';
import { useConfigureDevice, type ConfigureDeviceBody } from '../api/configure-device';
import { parseNumberField } from '../../../lib/number-field';
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

/** Whole minutes within bounds; empty is allowed only when not required (null). */
const minutes = (label: string, min: number, max: number, required: boolean) =>
  z.union([z.number(), z.string()]).transform((value, ctx) => {
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
    ...limitsShape,
    outOfRangeMinutes: minutes('Minutos fora da faixa', 0, 1440, true),
    noDataMinutes: minutes('Minutos sem dados', 1, 10080, false),
    reportIntervalSeconds: minutes('Intervalo esperado entre leituras', 1, 86400, false),
  })
  .superRefine(refineLimits);

type ConfigFormInput = z.input<typeof ConfigForm>;
type ConfigFormOutput = z.output<typeof ConfigForm>;

export function toConfigureBody(form: ConfigFormOutput): ConfigureDeviceBody {
  return {
    name: form.name,
    config: { ...limitsBody(form), out_of_range_minutes: form.outOfRangeMinutes ?? 0, no_data_minutes: form.noDataMinutes, report_interval_seconds: form.reportIntervalSeconds },
  };
}

function defaultsOf(device: Device): ConfigFormInput {
  return {
    name: device.name,
    ...limitsDefaults(device.config),
    outOfRangeMinutes: device.config.out_of_range_minutes ?? 0,
    noDataMinutes: device.config.no_data_minutes ?? '',
    reportIntervalSeconds: device.config.report_interval_seconds ?? '',
  };
}

function DeviceConfigForm({ device, onClose }: { device: Device; onClose: () => void }) {
  const configure = useConfigureDevice(device._id, device.mac);
  // GxP mode (ADR 0061): the change goes with its reason, asked here.
  const reason = useChangeReason();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<ConfigFormInput, unknown, ConfigFormOutput>({
    resolver: zodResolver(ConfigForm),
    defaultValues: defaultsOf(device),
  });

  const onSubmit = handleSubmit((form) => {
    const why = reason.take();
    if (!why) return;
    configure.mutate({ ...toConfigureBody(form), ...why }, {
      onSuccess: () => {
        notifications.show({ color: 'teal', title: 'Sucesso!', message: HISTORY_MESSAGES.deviceUpdated });
        onClose();
      },
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, HISTORY_MESSAGES.deviceUpdateError) }),
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <TextInput label="Nome" data-autofocus error={errors.name?.message} {...register('name')} />
        <Text size="sm" fw={600}>
          Limites (vazio: sem limite)
        </Text>
        <LimitFields control={control} />
        <Text size="sm" fw={600}>
          Alarmes
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="xs">
          <NumberField
            control={control}
            name="outOfRangeMinutes"
            label="Fora da faixa por (minutos)"
            description="Alarme quando a leitura fica fora dos limites por esse tempo (0: imediato)."
            decimals={0}
          />
          <NumberField
            control={control}
            name="noDataMinutes"
            label="Sem dados por (minutos)"
            description="Alarme quando o dispositivo não envia leituras por esse tempo (vazio: desativado)."
            decimals={0}
          />
        </SimpleGrid>
        <Text size="sm" fw={600}>
          Frequência de leituras
        </Text>
        <NumberField
          control={control}
          name="reportIntervalSeconds"
          label="Intervalo esperado entre leituras (segundos)"
          description={intervalHint(device)}
          decimals={0}
        />
        {reason.field}
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

/** ADR 0035: empty means the interval is learned from the readings; say what was learned so far. */
function intervalHint(device: Device): string {
  const learned = device.config.report_interval_seconds == null ? device.expectedIntervalSeconds : null;
  const now = learned === null ? '' : ` (aprendido até agora: ${learned} s)`;
  return `Vazio: aprendido das leituras${now}. O dispositivo aparece como "Sem dados" após 3 intervalos sem leituras.`;
}
