import { Alert, Button, Group, Modal, NumberInput, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { LocationBody, MSG, type LatLng, type Location } from '@sentinela/contract';
import { IconAlertCircle, IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { EnterprisePicker } from '../../../components/EnterprisePicker';
import { ApiError } from '../../../lib/api-client';
import { useGeocodeSearch, useGeocoderStatus } from '../api/geocoder';
import { useSaveLocation } from '../api/save-location';

const PickPositionMap = lazy(() => import('./PickPositionMap'));

interface LocationFormModalProps {
  opened: boolean;
  /** The location to edit, or null for a new one. */
  location: Location | null;
  /** The super admin names the enterprise of a new location. */
  chooseEnterprise: boolean;
  onClose: () => void;
}

type FieldErrors = Partial<Record<'name' | 'address' | 'latitude' | 'longitude' | 'enterprise_id', string>>;

const toNumber = (value: string | number) => (typeof value === 'number' ? value : value.trim() === '' ? null : Number(value.replace(',', '.')));

/** Cadastrar / Editar Local: name, address, and the position picked on the map or found by the address search. */
export function LocationFormModal({ opened, location, chooseEnterprise, onClose }: LocationFormModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={location ? 'Editar Local' : 'Cadastrar Local'} size="lg" closeOnClickOutside={false}>
      {/* A fresh form for each opening: what was typed for another location does not linger. */}
      {opened && <LocationForm location={location} chooseEnterprise={chooseEnterprise} onClose={onClose} />}
    </Modal>
  );
}

function LocationForm({ location, chooseEnterprise, onClose }: Omit<LocationFormModalProps, 'opened'>) {
  const save = useSaveLocation();
  const geocoder = useGeocoderStatus(true);
  const search = useGeocodeSearch();
  const [name, setName] = useState(location?.name ?? '');
  const [address, setAddress] = useState(location?.address ?? '');
  const [latitude, setLatitude] = useState<string | number>(location?.latitude ?? '');
  const [longitude, setLongitude] = useState<string | number>(location?.longitude ?? '');
  const [enterpriseId, setEnterpriseId] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [focus, setFocus] = useState(0);
  const [initial] = useState<LatLng | null>(() =>
    location && location.latitude !== null && location.longitude !== null ? [location.latitude, location.longitude] : null,
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);

  const lat = toNumber(latitude);
  const lng = toNumber(longitude);
  const position: LatLng | null = lat !== null && lng !== null && Number.isFinite(lat) && Number.isFinite(lng) ? [lat, lng] : null;

  const pick = (point: LatLng) => {
    setLatitude(point[0]);
    setLongitude(point[1]);
    setErrors(({ latitude: _lat, longitude: _lng, ...rest }) => rest);
  };

  const runSearch = () => {
    if (query.trim().length < 3) return;
    search.mutate(query.trim());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = LocationBody.safeParse({
      name,
      address,
      latitude: lat ?? undefined,
      longitude: lng ?? undefined,
      enterprise_id: chooseEnterprise && !location ? enterpriseId : undefined,
    });
    const found: FieldErrors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof FieldErrors;
        found[field] ??= field === 'latitude' || field === 'longitude' ? `${issue.message} Marque a posição no mapa.` : issue.message;
      }
    }
    if (chooseEnterprise && !location && !enterpriseId) found.enterprise_id = 'Informe a empresa do local.';
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    save.mutate(
      { id: location?._id ?? null, body: parsed.data },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', title: MSG.successTitle, message: location ? 'Local editado com sucesso!' : 'Local cadastrado com sucesso!' });
          onClose();
        },
        onError: (error) => setFailure(error instanceof ApiError ? error.message : 'Não foi possível salvar o local.'),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {failure && (
          <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
            {failure}
          </Alert>
        )}
        {chooseEnterprise && !location && (
          <Stack gap={2}>
            <EnterprisePicker value={enterpriseId} onChange={setEnterpriseId} />
            {errors.enterprise_id && (
              <Text size="xs" c="red">
                {errors.enterprise_id}
              </Text>
            )}
          </Stack>
        )}
        <TextInput label="Nome" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} maxLength={120} data-autofocus />
        <TextInput label="Endereço" value={address} onChange={(e) => setAddress(e.currentTarget.value)} error={errors.address} maxLength={300} />

        {geocoder.data?.enabled ? (
          <Stack gap={4}>
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <TextInput
                label="Buscar endereço no mapa"
                placeholder="Rua, número, cidade"
                value={query}
                onChange={(e) => setQuery(e.currentTarget.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    runSearch();
                  }
                }}
                style={{ flex: 1 }}
                maxLength={200}
              />
              <Button variant="light" leftSection={<IconSearch size={16} />} onClick={runSearch} loading={search.isPending} disabled={query.trim().length < 3}>
                Buscar
              </Button>
            </Group>
            {search.isError && (
              <Text size="xs" c="red">
                {search.error instanceof ApiError ? search.error.message : 'Não foi possível buscar o endereço.'}
              </Text>
            )}
            {search.data && search.data.length === 0 && (
              <Text size="xs" c="dimmed">
                Nenhum endereço encontrado. Marque o local no mapa.
              </Text>
            )}
            {search.data?.map((place) => (
              <UnstyledButton
                key={`${place.latitude},${place.longitude},${place.display_name}`}
                onClick={() => {
                  pick([place.latitude, place.longitude]);
                  if (!address.trim()) setAddress(place.display_name);
                  setFocus((n) => n + 1);
                  search.reset();
                }}
                p={4}
                style={{ borderRadius: 4 }}
                data-testid="geocode-result"
              >
                <Text size="sm">{place.display_name}</Text>
              </UnstyledButton>
            ))}
          </Stack>
        ) : (
          geocoder.isSuccess && (
            <Text size="xs" c="dimmed" data-testid="geocoder-off">
              A busca de endereços não está disponível neste servidor: clique no mapa para marcar a posição do local.
            </Text>
          )
        )}

        <Suspense fallback={<div style={{ height: 260 }} />}>
          <PickPositionMap position={position} onPick={pick} focusKey={focus} initial={initial} />
        </Suspense>
        {geocoder.data?.enabled && (
          <Text size="xs" c="dimmed">
            Ou clique no mapa para marcar a posição do local.
          </Text>
        )}
        <Group grow>
          <NumberInput label="Latitude" required value={latitude} onChange={setLatitude} decimalSeparator="," decimalScale={6} hideControls inputMode="decimal" error={errors.latitude} />
          <NumberInput label="Longitude" required value={longitude} onChange={setLongitude} decimalSeparator="," decimalScale={6} hideControls inputMode="decimal" error={errors.longitude} />
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            Cancelar
          </Button>
          <Button type="submit" loading={save.isPending}>
            Salvar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
