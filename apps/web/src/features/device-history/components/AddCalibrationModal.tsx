import { ActionIcon, Alert, Button, Group, Modal, NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { CALIBRATION_MAX_POINTS, CALIBRATION_MESSAGES as M, isCalendarDate, MSG, type CalibrationPoint } from '@sentinela/contract';
import { IconAlertCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { UploadFileField, UploadProgress } from '../../../components/form/UploadFileField';
import { errorMessage } from '../../../lib/api-client';
import { useAddCalibration, useCalibrationLimits } from '../api/calibrations';

interface PointRow {
  reference: number | string;
  measured: number | string;
}

interface AddCalibrationForm {
  calibrated_at: string;
  due_at: string;
  laboratory: string;
  certificate_number: string;
  points: PointRow[];
  file: File | null;
}

const required = (message: string) => (value: string) => (value.trim() ? true : message);
const dateRule = (label: string) => (value: string) => (isCalendarDate(value) ? true : M.dateFormat(label));

/** "Adicionar certificado" (X12): the certificate's PDF, dates, laboratory and number, optionally its points. */
export function AddCalibrationModal({ deviceId, deviceName, opened, onClose }: { deviceId: string; deviceName: string | null; opened: boolean; onClose: () => void }) {
  const add = useAddCalibration(deviceId);
  const limits = useCalibrationLimits();
  const maxBytes = limits.data?.max_bytes ?? null;
  const [progress, setProgress] = useState<number | null>(null);
  const { control, register, handleSubmit, reset, getValues, formState: { errors } } = useForm<AddCalibrationForm>({
    defaultValues: { calibrated_at: '', due_at: '', laboratory: '', certificate_number: '', points: [], file: null },
  });
  const points = useFieldArray({ control, name: 'points' });

  const close = () => {
    reset();
    add.reset();
    setProgress(null);
    onClose();
  };

  const onSubmit = handleSubmit((form) => {
    if (!form.file) return;
    const pairs: CalibrationPoint[] = form.points
      .filter((p) => p.reference !== '' && p.measured !== '')
      .map((p) => ({ quantity: 'temperature', reference: Number(p.reference), measured: Number(p.measured) }));
    setProgress(0);
    add.mutate(
      { deviceId, calibrated_at: form.calibrated_at, due_at: form.due_at, laboratory: form.laboratory.trim(), certificate_number: form.certificate_number.trim(), points: pairs, file: form.file, onProgress: setProgress },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', title: MSG.successTitle, message: M.saved });
          close();
        },
        onSettled: () => setProgress(null),
      },
    );
  });

  return (
    <Modal opened={opened} onClose={close} title="Adicionar certificado de calibração" closeOnClickOutside={false} centered size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {deviceName && (
            <Text size="sm" c="dimmed">
              Dispositivo: {deviceName}
            </Text>
          )}
          {add.isError && (
            <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
              {errorMessage(add.error, M.saveFailed)}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput type="date" label="Data da calibração" withAsterisk error={errors.calibrated_at?.message} {...register('calibrated_at', { validate: dateRule('Data da calibração') })} />
            <TextInput
              type="date"
              label="Válido até"
              withAsterisk
              error={errors.due_at?.message}
              {...register('due_at', {
                validate: (value) => {
                  const date = dateRule('Data de vencimento')(value);
                  if (date !== true) return date;
                  return value > getValues('calibrated_at') ? true : M.dueBeforeCalibration;
                },
              })}
            />
            <TextInput label="Laboratório" maxLength={120} withAsterisk error={errors.laboratory?.message} {...register('laboratory', { validate: required('Informe o laboratório.') })} />
            <TextInput label="Número do certificado" maxLength={60} withAsterisk error={errors.certificate_number?.message} {...register('certificate_number', { validate: required('Informe o número do certificado.') })} />
          </SimpleGrid>
          <Stack gap={6}>
            <Group justify="space-between">
              <Text size="sm" fw={500}>
                Pontos de calibração (opcional, °C)
              </Text>
              <Button
                size="xs"
                variant="subtle"
                leftSection={<IconPlus size={14} />}
                disabled={points.fields.length >= CALIBRATION_MAX_POINTS}
                onClick={() => points.append({ reference: '', measured: '' })}
              >
                Adicionar ponto
              </Button>
            </Group>
            {points.fields.map((field, index) => (
              <Group key={field.id} gap="xs" wrap="nowrap" align="flex-end">
                <Controller
                  control={control}
                  name={`points.${index}.reference`}
                  render={({ field: f }) => <NumberInput label={index === 0 ? 'Referência' : undefined} aria-label="Referência" decimalSeparator="," min={-100} max={200} style={{ flex: 1 }} value={f.value} onChange={f.onChange} />}
                />
                <Controller
                  control={control}
                  name={`points.${index}.measured`}
                  render={({ field: f }) => <NumberInput label={index === 0 ? 'Medido' : undefined} aria-label="Medido" decimalSeparator="," min={-100} max={200} style={{ flex: 1 }} value={f.value} onChange={f.onChange} />}
                />
                <ActionIcon variant="subtle" color="red" size="lg" aria-label="Remover ponto" onClick={() => points.remove(index)}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
          <UploadFileField
            control={control}
            name="file"
            label="Certificado (PDF)"
            placeholder="Selecione o PDF do certificado"
            accept="application/pdf,.pdf"
            maxBytes={maxBytes}
            messages={M}
          />
          <UploadProgress progress={progress} label="Envio do certificado" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={add.isPending}>
              Cancelar
            </Button>
            <Button type="submit" loading={add.isPending}>
              Salvar
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
