import { z } from './zod-locale';
import { changeReason } from './audit-trail';
import { IsoDate, pageNumber } from './common';
import { deviceName } from './devices';
import { AlarmLimitsInput, boundedInstant, boundedInt, cleanText, measureValue, optionalText } from './values';

/** Travel statuses (spec 001 §4) and the transitions we allow: 0 → 1 ⇄ 3 → 2, and 1 → 2. */
export const TravelStatus = { NotStarted: 0, InProgress: 1, Finished: 2, Paused: 3 } as const;
export type TravelStatusId = (typeof TravelStatus)[keyof typeof TravelStatus];

export const TRAVEL_STATUS_NAMES: Record<TravelStatusId, string> = {
  0: 'Não iniciada',
  1: 'Em andamento',
  2: 'Finalizada',
  3: 'Pausada',
};

export const TRAVEL_TRANSITIONS: Record<TravelStatusId, readonly TravelStatusId[]> = {
  0: [1],
  1: [3, 2],
  3: [1, 2],
  2: [],
};

/** [latitude, longitude], as the documents carry positions. */
export const LatLng = z.tuple([
  z.number().min(-90, 'Latitude inválida.').max(90, 'Latitude inválida.'),
  z.number().min(-180, 'Longitude inválida.').max(180, 'Longitude inválida.'),
]);
export type LatLng = z.infer<typeof LatLng>;

export const Place = z.object({ address: z.string(), location: LatLng.nullable() });

const Range = z.object({ min: z.number().nullable(), max: z.number().nullable() });

/** A device card of a travel (spec 001 §3 "Travel device"). Limits are the travel's own when set, else the device's. */
export const TravelDevice = z.object({
  _id: z.string(),
  name: z.string(),
  mac: z.string(),
  battery: z.object({ value: z.number().nullable() }),
  temperature: z.object({ value: z.number().nullable() }),
  humidity: z.object({ value: z.number().nullable() }),
  last_update_date: IsoDate.nullable(),
  /** ADR 0035: configured, else learned; null when not known yet. */
  expectedIntervalSeconds: z.number().nullable(),
  config: z.object({ temperature: Range, humidity: Range }),
});
export type TravelDevice = z.infer<typeof TravelDevice>;

/**
 * What a tracking code shows (ADR 36): `position` (the map and the last position only: a customer waiting for a
 * parcel) or `readings` (also the device cards with temperature, humidity and battery: the receiver of a
 * pharmaceutical load). The API leaves out what the scope excludes, over HTTP and the live socket.
 */
export const TrackingScope = z.enum(['position', 'readings'], { message: 'Escolha o que o link mostra.' });
export type TrackingScope = z.infer<typeof TrackingScope>;

export const TRACKING_SCOPE_LABELS: Record<TrackingScope, string> = {
  position: 'Somente a posição',
  readings: 'Posição e leituras',
};

/**
 * The tracking link of a travel. `expires_at` is when the code stops working: the managers' date when they chose
 * one (`expires_at_chosen`), else TRAVEL_LINK_DAYS_AFTER_END days after the travel ends (null while it has not).
 * Lookups (how often the code was looked up by someone who could not see the travel anyway, and when last) and
 * the revocation are in the full view only; the public view has them null.
 */
export const TravelTracking = z.object({
  scope: TrackingScope,
  expires_at: IsoDate.nullable(),
  expires_at_chosen: IsoDate.nullable(),
  revoked_at: IsoDate.nullable(),
  lookups: z.number().int().nullable(),
  last_lookup_at: IsoDate.nullable(),
});
export type TravelTracking = z.infer<typeof TravelTracking>;

export const Travel = z.object({
  _id: z.string(),
  code: z.string(),
  status: z.number().int(),
  status_name: z.string(),
  /** The responsible user; null in the public (tracking-code) view. */
  user: z.object({ _id: z.string(), name: z.string() }).nullable(),
  enterprise: z.object({ _id: z.string(), name: z.string() }).nullable(),
  origin: Place,
  destiny: Place,
  devices: z.array(TravelDevice),
  last_position: LatLng.nullable(),
  created_at: IsoDate,
  started_at: IsoDate.nullable(),
  finished_at: IsoDate.nullable(),
  /** The tracking link (ADR 36). In the public view with scope `position`, `devices` is empty. */
  tracking: TravelTracking,
  /**
   * What this answer lets its reader see (ADR 72): `full` (a user who may see the travel), or a tracking code's
   * scope — `readings` (cards, graphs, history and reports through the code's routes) or `position` (the map only).
   */
  view: z.enum(['full', 'readings', 'position']),
});
export type Travel = z.infer<typeof Travel>;

export const TravelListQuery = z.object({
  paginate: z.enum(['true', 'false']).default('true'),
  page: pageNumber(),
  limit: boundedInt('Viagens por página', 1, 200, { coerce: true }).default(20),
});

/** GET /api/travels answers `data.data` (the documents' client reads that path). */
export const TravelListResponse = z.object({
  data: z.object({ data: z.array(Travel), total: z.number().int(), page: z.number().int(), limit: z.number().int() }),
});

/**
 * A reading of GET /api/travels/{id}/devices/{mac}/history, which answers TravelReading[]: the device's readings
 * within the travel, the newest 10,000 of them, oldest first. A travel not started answers [].
 */
export const TravelReading = z.object({
  createdAt: IsoDate,
  temperature: z.number().nullable(),
  humidity: z.number().nullable(),
  battery: z.number().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  travelId: z.string(),
  mac: z.string(),
});
export type TravelReading = z.infer<typeof TravelReading>;

/**
 * A point of the travelled path (GET /api/travels/{id}/locations answers TravelLocation[]), oldest first, one point
 * per change of position, thinned evenly to about 2,000 points on long travels (first and last kept).
 */
export const TravelLocation = z.object({ createdAt: IsoDate, location: LatLng, mac: z.string() });
export type TravelLocation = z.infer<typeof TravelLocation>;

/** A position typed or picked by a user: [latitude, longitude] within the globe. */
export const LatLngInput = z.tuple([measureValue('lat'), measureValue('lng')]);

const PlaceInput = z.object({
  address: cleanText('Endereço', { min: 3, max: 300, requiredMessage: 'Informe o endereço.' }),
  location: LatLngInput,
});

/**
 * A travel's own limits of a device: the shared AlarmLimitsInput (numbers or numeric strings, like
 * `PUT /api/devices/{id}`); null or blank clears a limit (the device's applies).
 */
const LimitsInput = AlarmLimitsInput;

export const TravelDeviceInput = z.object({
  device_id: z.uuid('Dispositivo inválido.'),
  /** Blank or absent: the device's own name. */
  name: optionalText('O nome', { max: 80 }),
  config: LimitsInput.optional(),
});

/** POST /api/travels (travels:manage) answers 201 with the Travel (status 0, a new tracking code). */
export const CreateTravelBody = z.object({
  origin: PlaceInput,
  destiny: PlaceInput,
  responsible_user_id: z.uuid('Informe o responsável.'),
  devices: z.array(TravelDeviceInput).min(1, 'Escolha ao menos um dispositivo.').max(50),
  /** Only the super admin chooses; everyone else creates travels in their own enterprise. */
  enterprise_id: z.uuid('Empresa inválida.').optional(),
});

/** PUT /api/travels/{id}: given fields only; `devices` replaces the travel's list. 409 once finished. Answers the Travel. */
export const UpdateTravelBody = CreateTravelBody.omit({ enterprise_id: true }).partial().extend({ reason: changeReason() });

/** POST /api/travels/{id}/status answers the Travel; a transition outside TRAVEL_TRANSITIONS is 409 (pt-BR message). */
export const TravelStatusBody = z.object({
  status: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { message: 'Status de viagem inválido.' }),
});

/**
 * PUT /api/travels/edit-travel-device (spec 001 §7) answers the Travel. In `config`, an absent value keeps the travel's
 * limit and null clears it (the device's own applies again).
 */
export const EditTravelDeviceBody = z.object({
  name: deviceName,
  config: LimitsInput,
  travel_id: z.uuid('Viagem inválida.'),
  device_id: z.uuid('Dispositivo inválido.'),
  reason: changeReason(),
});

/**
 * GET /api/travels/localizator/{cod} (public; case, spaces and dashes ignored): the Travel, with `user: null` for
 * visitors (full view for a signed-in user who may see it). 404 unknown code; 410 for a code that expired or was
 * revoked (ADR 36; the message says which); 429 after LOCALIZATOR_MAX_PER_MINUTE lookups from one address.
 */
const travelCode = cleanText('O código', { min: 1, max: 40, requiredMessage: 'Informe o código do localizador.' });

export const LocalizatorParam = z.object({
  cod: travelCode,
});

/**
 * PUT /api/travels/{id}/tracking-link (travels:manage): what the code shows and until when it works (null: the
 * default, some days after the travel ends). Answers the Travel. A date in the past is refused.
 */
export const TrackingLinkBody = z.object({
  scope: TrackingScope,
  expires_at: boundedInstant('A validade', { requireOffset: true }).nullable(),
});

/** Live topics (T6). The server emits on these event names to the sockets in the travel's room. */
export const travelTopics = {
  devices: (travelId: string) => `travel-logs:${travelId}`,
  location: (travelId: string) => `travel-location-logs:${travelId}`,
  /** The travel itself changed (status, places, responsible, devices): clients reload it. Payload TravelChangedEvent. */
  changed: (travelId: string) => `travel-changed:${travelId}`,
};

export const TravelChangedEvent = z.object({ travelId: z.string() });

/**
 * Payload of travel-logs:{travelId}: the whole device list, which replaces the client's. When a device moved since
 * the last message, the newest position (TravelLocationEvent) comes as a second argument of the same message: one
 * message per socket per flush (ADR 47).
 */
export const TravelDevicesEvent = z.array(TravelDevice);

/**
 * Payload of travel-location-logs:{travelId}: the newest position, sent to everyone who follows the travel when a
 * device moved (a position-only code gets only this, never travel-logs); it also rides beside the cards in
 * travel-logs (ADR 47).
 */
export const TravelLocationEvent = z.object({ travelId: z.string(), last_position: LatLng, mac: z.string(), createdAt: IsoDate });

/**
 * Client → server: `emit('subscribe', SubscribeTravel, ack)` joins a travel's room (signed-in sockets pass the travel
 * id, visitors the tracking code) and acknowledges with SubscribeAck; `emit('unsubscribe', { travelId }, ack)` leaves.
 * The handshake carries `auth: { token }` (the session token) or nothing; a bad token fails the connection
 * (`connect_error`, message "Sua sessão expirou, por favor efetue login novamente.", data.code SESSION_EXPIRED).
 */
export const SubscribeTravel = z.union([z.object({ travelId: z.uuid() }), z.object({ code: travelCode })]);
export const SubscribeAck = z.union([z.object({ ok: z.literal(true), travelId: z.string() }), z.object({ ok: z.literal(false), error: z.string() })]);
