import '@mantine/core/styles/Combobox.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, MultiSelect, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { CreateTravelBody, Profile, z, type LatLng, type Travel } from '@sentinela/contract';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { Controller, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { useChangeReason } from '../../../components/compliance/use-change-reason';
import { NumberField } from '../../../components/form/NumberField';
import { EnterprisePicker } from '../../../components/EnterprisePicker';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useRequiredSession } from '../../../lib/session';
import { useCreateTravel, type CreateTravelInput } from '../api/create-travel';
import { useUpdateTravel } from '../api/update-travel';
import { useResponsibles, useVisibleDevices } from '../api/form-options';
import { TRAVEL_MESSAGES } from '../messages';
import { MapFallback } from './MapFallback';

const PickPlacesMap = lazy(() => import('./PickPlacesMap'));

/** A coordinate typed with a comma or a dot; empty asks for it. */
const coordinate = (name: 'latitude' | 'longitude', bound: number) =>
  z.union([z.number(), z.string()]).transform((value, ctx) => {
    const number = typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value.trim().replace(',', '.'));
    const label = name === 'latitude' ? 'Latitude' : 'Longitude';
    if (Number.isNaN(number)) {
      ctx.addIssue({ code: 'custom', message: `Informe a ${name}.` });
      return z.NEVER;
    }
    if (number < -bound || number > bound) {
      ctx.addIssue({ code: 'custom', message: `${label} inválida.` });
      return z.NEVER;
    }
    return number;
  });

const PlaceForm = z.object({
  address: CreateTravelBody.shape.origin.shape.address,
  lat: coordinate('latitude', 90),
  lng: coordinate('longitude', 180),
});

const TravelSchema = z.object({
  enterprise_id: z.string().nullable(),
  origin: PlaceForm,
  destiny: PlaceForm,
  responsible_user_id: z.string().nullable().refine((value) => !!value, 'Informe o responsável.'),
  device_ids: z.array(z.string()).min(1, 'Escolha ao menos um dispositivo.'),
});

type TravelFormInput = z.input<typeof TravelSchema>;
type TravelFormOutput = z.output<typeof TravelSchema>;

/** The form's values as the body of POST /api/travels (CreateTravelBody). */
export function toCreateBody(form: TravelFormOutput, chooseEnterprise: boolean): CreateTravelInput {
  return {
    origin: { address: form.origin.address, location: [form.origin.lat, form.origin.lng] },
    destiny: { address: form.destiny.address, location: [form.destiny.lat, form.destiny.lng] },
    responsible_user_id: form.responsible_user_id ?? '',
    devices: form.device_ids.map((device_id) => ({ device_id })),
    ...(chooseEnterprise && form.enterprise_id ? { enterprise_id: form.enterprise_id } : {}),
  };
}

/** A field of the server's issue paths (`origin.location.0`) in this form's names (`origin.lat`). */
export function formFieldOf(path: string): FieldPath<TravelFormInput> | null {
  const map: Record<string, FieldPath<TravelFormInput>> = {
    'origin.address': 'origin.address',
    'origin.location.0': 'origin.lat',
    'origin.location.1': 'origin.lng',
    'destiny.address': 'destiny.address',
    'destiny.location.0': 'destiny.lat',
    'destiny.location.1': 'destiny.lng',
    responsible_user_id: 'responsible_user_id',
    devices: 'device_ids',
    enterprise_id: 'enterprise_id',
  };
  if (map[path]) return map[path];
  if (path.startsWith('devices.')) return 'device_ids';
  return null;
}

interface TravelFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The travel to edit; none: a new travel. */
  travel?: Travel;
}

/** "Nova viagem" and "Editar viagem" (T8): origin and destination with coordinates, responsible user, devices. */
export function TravelFormModal({ opened, onClose, travel }: TravelFormModalProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={opened} onClose={onClose} title={travel ? 'Editar viagem' : 'Nova viagem'} size="xl" fullScreen={!!phone} centered closeOnClickOutside={false}>
      {opened && <TravelForm key={travel?._id ?? 'new'} travel={travel} onClose={onClose} />}
    </Modal>
  );
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));

/** The form's starting values: empty, or the travel being edited. */
function defaultsOf(travel: Travel | undefined, userId: string): TravelFormInput {
  const place = (p: Travel['origin'] | undefined) => ({ address: p?.address ?? '', lat: p?.location?.[0] ?? '', lng: p?.location?.[1] ?? '' });
  return {
    enterprise_id: travel?.enterprise?._id ?? null,
    origin: place(travel?.origin),
    destiny: place(travel?.destiny),
    responsible_user_id: travel ? (travel.user?._id ?? null) : userId,
    device_ids: travel?.devices.map((d) => d._id) ?? [],
  };
}

function TravelForm({ travel, onClose }: { travel: Travel | undefined; onClose: () => void }) {
  const { user, enterprise } = useRequiredSession();
  // A travel stays in its enterprise: only a new one lets the super admin choose.
  const chooseEnterprise = !travel && user.profile._id === Profile.SuperAdmin;
  const create = useCreateTravel();
  const update = useUpdateTravel(travel?._id ?? '');
  const saving = create.isPending || update.isPending;
  const [picking, setPicking] = useState<'origin' | 'destiny'>('origin');

  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    formState: { errors },
  } = useForm<TravelFormInput, unknown, TravelFormOutput>({
    resolver: zodResolver(TravelSchema),
    defaultValues: defaultsOf(travel, user._id),
  });

  const chosenEnterprise = useWatch({ control, name: 'enterprise_id' });
  // GxP mode (ADR 0061): changing the devices of an existing travel goes with a reason (its creation needs none).
  const deviceIds = useWatch({ control, name: 'device_ids' });
  const devicesChanged = !!travel && !sameSet(deviceIds, travel.devices.map((d) => d._id));
  const reason = useChangeReason(devicesChanged);
  const clientId = travel ? (travel.enterprise?._id ?? null) : chooseEnterprise ? chosenEnterprise : enterprise._id;
  const responsibles = useResponsibles(clientId, user);
  const devices = useVisibleDevices(user);

  const [originLat, originLng, destinyLat, destinyLng] = useWatch({
    control,
    name: ['origin.lat', 'origin.lng', 'destiny.lat', 'destiny.lng'],
  });
  const origin = useMemo(() => toLatLng(originLat, originLng), [originLat, originLng]);
  const destiny = useMemo(() => toLatLng(destinyLat, destinyLng), [destinyLat, destinyLng]);

  const onPick = useCallback(
    (position: LatLng) => {
      setValue(`${picking}.lat`, position[0], { shouldValidate: true });
      setValue(`${picking}.lng`, position[1], { shouldValidate: true });
      // After the origin, the next click sets the destination.
      if (picking === 'origin') setPicking('destiny');
    },
    [picking, setValue],
  );

  const deviceOptions = useMemo(
    () =>
      (devices.data ?? [])
        .filter((device) => !clientId || !device.enterprise || device.enterprise._id === clientId)
        .map((device) => ({ value: device._id, label: `${device.name} (${device.mac})` })),
    [devices.data, clientId],
  );
  const responsibleOptions = useMemo(
    () => (responsibles.data ?? (clientId ? [] : [{ _id: user._id, name: user.name }])).map((u) => ({ value: u._id, label: u.name })),
    [responsibles.data, clientId, user],
  );

  const onSubmit = handleSubmit((form) => {
    if (chooseEnterprise && !form.enterprise_id) {
      setError('enterprise_id', { message: 'Escolha a empresa da viagem.' });
      return;
    }
    const body = toCreateBody(form, chooseEnterprise);
    const checked = CreateTravelBody.safeParse(body);
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const field = formFieldOf(issue.path.join('.'));
        if (field) setError(field, { message: issue.message });
      }
      return;
    }
    const showServerIssues = (error: Error) => {
      if (!(error instanceof ApiError)) return;
      for (const issue of error.issues) {
        const field = formFieldOf(issue.path);
        if (field) setError(field, { message: issue.message });
      }
    };
    if (travel) {
      const why = reason.take();
      if (!why) return;
      const { enterprise_id: _chosen, ...changes } = checked.data;
      update.mutate({ ...changes, ...why }, {
        onSuccess: () => {
          notifications.show({ color: 'teal', title: TRAVEL_MESSAGES.successTitle, message: TRAVEL_MESSAGES.travelUpdated });
          onClose();
        },
        onError: (error) => {
          showServerIssues(error);
          notifications.show({ color: 'red', title: TRAVEL_MESSAGES.errorTitle, message: errorMessage(error, TRAVEL_MESSAGES.travelUpdateError) });
        },
      });
      return;
    }
    create.mutate(checked.data, {
      onSuccess: (created) => {
        notifications.show({
          color: 'teal',
          title: TRAVEL_MESSAGES.successTitle,
          message: created?.code ? `${TRAVEL_MESSAGES.travelCreated} Código do localizador: ${created.code}` : TRAVEL_MESSAGES.travelCreated,
          autoClose: 10_000,
        });
        onClose();
      },
      onError: (error) => {
        showServerIssues(error);
        notifications.show({ color: 'red', title: TRAVEL_MESSAGES.errorTitle, message: errorMessage(error, TRAVEL_MESSAGES.travelCreateError) });
      },
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        {chooseEnterprise && (
          <Controller
            control={control}
            name="enterprise_id"
            render={({ field, fieldState }) => (
              <Stack gap={2}>
                <EnterprisePicker
                  value={field.value}
                  onChange={(id) => {
                    field.onChange(id);
                    setValue('device_ids', []);
                    setValue('responsible_user_id', null);
                  }}
                />
                {fieldState.error && (
                  <Text size="xs" c="red">
                    {fieldState.error.message}
                  </Text>
                )}
              </Stack>
            )}
          />
        )}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Stack gap="xs">
            <Text fw={700}>Origem</Text>
            <TextInput label="Endereço de origem" required error={errors.origin?.address?.message} {...register('origin.address')} />
            <SimpleGrid cols={2} spacing="xs">
              <NumberField control={control} name="origin.lat" label="Latitude" decimals={6} required />
              <NumberField control={control} name="origin.lng" label="Longitude" decimals={6} required />
            </SimpleGrid>
          </Stack>
          <Stack gap="xs">
            <Text fw={700}>Destino</Text>
            <TextInput label="Endereço de destino" required error={errors.destiny?.address?.message} {...register('destiny.address')} />
            <SimpleGrid cols={2} spacing="xs">
              <NumberField control={control} name="destiny.lat" label="Latitude" decimals={6} required />
              <NumberField control={control} name="destiny.lng" label="Longitude" decimals={6} required />
            </SimpleGrid>
          </Stack>
        </SimpleGrid>

        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm" c="dimmed">
            Clique no mapa para marcar a posição:
          </Text>
          <SegmentedControl
            size="xs"
            value={picking}
            onChange={(value) => setPicking(value === 'destiny' ? 'destiny' : 'origin')}
            data={[
              { value: 'origin', label: 'Origem' },
              { value: 'destiny', label: 'Destino' },
            ]}
            aria-label="Posição marcada ao clicar no mapa"
          />
        </Group>
        <Suspense fallback={<MapFallback height={260} />}>
          <PickPlacesMap origin={origin} destiny={destiny} onPick={onPick} />
        </Suspense>

        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Controller
            control={control}
            name="responsible_user_id"
            render={({ field, fieldState }) => (
              <Select
                label="Responsável"
                required
                data={responsibleOptions}
                value={field.value}
                onChange={field.onChange}
                searchable
                nothingFoundMessage="Nada encontrado..."
                placeholder={responsibles.isFetching ? 'Carregando...' : 'Selecione o responsável'}
                error={fieldState.error?.message ?? (responsibles.isError ? 'Não foi possível carregar os usuários.' : undefined)}
                comboboxProps={{ withinPortal: true }}
              />
            )}
          />
          <Controller
            control={control}
            name="device_ids"
            render={({ field, fieldState }) => (
              <MultiSelect
                label="Dispositivos"
                required
                data={deviceOptions}
                value={field.value}
                onChange={field.onChange}
                searchable
                nothingFoundMessage="Nada encontrado..."
                placeholder={devices.isPending ? 'Carregando...' : field.value.length ? undefined : 'Selecione os dispositivos'}
                error={fieldState.error?.message ?? (devices.isError ? 'Não foi possível encontrar dispositivos' : undefined)}
                comboboxProps={{ withinPortal: true }}
              />
            )}
          />
        </SimpleGrid>

        {reason.field}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose} disabled={saving}>
            Cancelar
          </Button>
          <Button type="submit" loading={saving}>
            {travel ? 'Salvar alterações' : 'Cadastrar viagem'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function toLatLng(lat: unknown, lng: unknown): LatLng | null {
  const a = typeof lat === 'number' ? lat : NaN;
  const b = typeof lng === 'number' ? lng : NaN;
  if (Number.isNaN(a) || Number.isNaN(b) || Math.abs(a) > 90 || Math.abs(b) > 180) return null;
  return [a, b];
}
