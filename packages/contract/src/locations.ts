import { z } from './zod-locale';
import { IsoDate } from './common';
import { cleanText, measureValue, optionalText } from './values';

/**
 * Locais (A8): fixed sites of an enterprise (a pharmacy, a store, a warehouse), their device groups (a cold room, a
 * fridge rack) and the devices placed in them. Field names of the documents: Location {_id, id, name, address,
 * latitude, longitude, devices}.
 */

export const LOCATION_MESSAGES = {
  loadFailed: 'Não foi possível encontrar locais.',
  notFound: 'Local não encontrado.',
  groupNotFound: 'Grupo não encontrado.',
  nameTaken: 'Já existe um local com esse nome.',
  groupNameTaken: 'Já existe um grupo com esse nome neste local.',
  groupOfAnotherLocation: 'O grupo escolhido não pertence ao local do dispositivo.',
  groupWithoutLocation: 'Escolha o local do dispositivo antes do grupo.',
  enterpriseRequired: 'Informe a empresa do local.',
  geocoderOff: 'A busca de endereços não está configurada neste servidor.',
  geocoderFailed: 'Não foi possível buscar o endereço agora. Tente novamente ou marque o local no mapa.',
  geocoderBusy: 'Muitas buscas de endereço em pouco tempo. Aguarde um instante e tente novamente.',
} as const;

export const locationName = cleanText('O nome', { min: 1, max: 120, requiredMessage: 'Informe o nome do local.' });
export const groupName = cleanText('O nome', { min: 1, max: 80, requiredMessage: 'Informe o nome do grupo.' });

export const LocationBody = z.object({
  name: locationName,
  address: optionalText('O endereço', { max: 300 }),
  latitude: measureValue('lat'),
  longitude: measureValue('lng'),
  /** Super admin only (required there): the enterprise the location belongs to. Others' locations are their enterprise's. */
  enterprise_id: z.uuid('Empresa inválida.').nullish(),
});
export type LocationBody = z.infer<typeof LocationBody>;

export const UpdateLocationBody = LocationBody.omit({ enterprise_id: true });
export type UpdateLocationBody = z.infer<typeof UpdateLocationBody>;

export const Location = z.object({
  _id: z.string(),
  id: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** Devices placed at the location that the caller may see. */
  devices: z.number().int(),
  enterprise: z.object({ _id: z.string(), name: z.string() }),
  created_at: IsoDate,
});
export type Location = z.infer<typeof Location>;
export const LocationList = z.array(Location);

export const LocationIdParam = z.object({ locationId: z.uuid({ message: LOCATION_MESSAGES.notFound }) });

export const DeviceGroup = z.object({
  _id: z.string(),
  id: z.string(),
  name: z.string(),
  location_id: z.string(),
  devices: z.number().int(),
});
export type DeviceGroup = z.infer<typeof DeviceGroup>;
export const DeviceGroupList = z.array(DeviceGroup);

export const CreateDeviceGroupBody = z.object({
  location_id: z.uuid({ message: LOCATION_MESSAGES.notFound }),
  name: groupName,
});
export const RenameDeviceGroupBody = z.object({ name: groupName });

/** A device as the Locais map and the placement dialog need it: where it is and its newest values. */
export const PlacedDevice = z.object({
  _id: z.string(),
  name: z.string(),
  mac: z.string(),
  enterprise_id: z.string().nullable(),
  location_id: z.string().nullable(),
  group_id: z.string().nullable(),
  temperature: z.number().nullable(),
  humidity: z.number().nullable(),
  battery: z.number().nullable(),
  lastSyncDate: IsoDate.nullable(),
  /** ADR 0035: configured, else learned; null when not known yet. */
  expectedIntervalSeconds: z.number().nullable(),
  config: z.object({
    temperature: z.object({ min: z.number().nullable(), max: z.number().nullable() }),
    humidity: z.object({ min: z.number().nullable(), max: z.number().nullable() }),
  }),
});
export type PlacedDevice = z.infer<typeof PlacedDevice>;
export const PlacedDeviceList = z.array(PlacedDevice);

/** GET /api/geocoder: whether the address search is available (GEOCODER_URL set). */
export const GeocoderStatus = z.object({ enabled: z.boolean() });

export const GeocodeQuery = z.object({
  q: cleanText('A busca', { min: 3, max: 200, requiredMessage: 'Informe o endereço a buscar.' }),
});

export const GeocodeResult = z.object({ display_name: z.string(), latitude: z.number(), longitude: z.number() });
export type GeocodeResult = z.infer<typeof GeocodeResult>;
export const GeocodeResultList = z.array(GeocodeResult);

/**
 * Live states of the Locais map. Client → server: `emit('subscribe-locations', {}, ack)` joins the caller's
 * locations feed (authorised like GET /api/locations) and acknowledges with LocationsSubscribeAck;
 * `emit('unsubscribe-locations', {}, ack)` leaves. Server → client: `location-devices` with the newest values of
 * the devices of a stored batch that the socket may see; `location-devices-changed` (no payload) when the set of
 * devices the socket may see was checked again after `access.changed` (linked, unlinked, profile changed): the page
 * fetches its list again. The same feed keeps Meus Dispositivos and Dispositivos (/client-devices) live (ADR 0049).
 */
export const locationTopics = {
  subscribe: 'subscribe-locations',
  unsubscribe: 'unsubscribe-locations',
  devices: 'location-devices',
  changed: 'location-devices-changed',
} as const;

export const LocationDeviceState = z.object({
  _id: z.string(),
  temperature: z.number().nullable(),
  humidity: z.number().nullable(),
  battery: z.number().nullable(),
  lastSyncDate: IsoDate,
});
export type LocationDeviceState = z.infer<typeof LocationDeviceState>;
export const LocationDevicesEvent = z.array(LocationDeviceState);

export const LocationsSubscribeAck = z.union([z.object({ ok: z.literal(true) }), z.object({ ok: z.literal(false), error: z.string() })]);
