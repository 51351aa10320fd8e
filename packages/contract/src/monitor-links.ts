import { z } from './zod-locale';
import { IsoDate } from './common';
import { LatLng, TravelDevice } from './travels';
import { boundedInstant, cleanText } from './values';

/**
 * Read-only monitor links for wall displays (issue 11, item 6; ADR 26). An enterprise administrator chooses travels
 * and/or devices and an expiry; whoever opens the link's address sees them live, without a session, until it expires
 * or is revoked. Every use goes to the access log (of the administrator who created the link).
 */

export const MONITOR_LINK_MESSAGES = {
  notFound: 'Link de monitoramento não encontrado.',
  /** The token is unknown (mistyped, never existed): 401, the same answer however it was wrong. */
  invalid: 'Link de monitoramento inválido.',
  expired: 'Este link de monitoramento expirou.',
  revoked: 'Este link de monitoramento foi revogado.',
  deviceNotFound: 'Dispositivo não encontrado.',
  travelNotFound: 'Viagem não encontrada.',
  enterpriseRequired: 'Informe a empresa do link.',
  enterpriseNotFound: 'Empresa não encontrada.',
  emptyScope: 'Escolha ao menos uma viagem ou um dispositivo.',
  expiryInPast: 'A validade deve ser uma data futura.',
  expiryTooFar: 'A validade máxima de um link é de 1 ano.',
  tooManyLookups: 'Muitas tentativas de abrir links de monitoramento. Aguarde um minuto e tente novamente.',
  tooManyItems: 'Escolha no máximo 100 dispositivos e 50 viagens.',
} as const;

/** A link lives at most this long: a forgotten wall display does not keep a door open for ever. */
export const MONITOR_LINK_MAX_DAYS = 365;
export const MONITOR_LINK_MAX_DEVICES = 100;
export const MONITOR_LINK_MAX_TRAVELS = 50;

/** The web address of a link's monitor page (the token is its only credential). */
export const monitorPagePath = (token: string) => `/monitor/${encodeURIComponent(token)}`;

export const CreateMonitorLinkBody = z.object({
  name: cleanText('O nome', { min: 1, max: 80, requiredMessage: 'Informe o nome do link.' }),
  /** Super admin only (required there): the enterprise whose travels and devices the link shows. */
  enterprise_id: z.uuid(MONITOR_LINK_MESSAGES.enterpriseNotFound).nullish(),
  device_ids: z.array(z.uuid(MONITOR_LINK_MESSAGES.deviceNotFound)).max(MONITOR_LINK_MAX_DEVICES, MONITOR_LINK_MESSAGES.tooManyItems).default([]),
  travel_ids: z.array(z.uuid(MONITOR_LINK_MESSAGES.travelNotFound)).max(MONITOR_LINK_MAX_TRAVELS, MONITOR_LINK_MESSAGES.tooManyItems).default([]),
  /** Until when the link opens (within a year from now; checked by the server against its clock). */
  expires_at: boundedInstant('A validade', { requireOffset: true }),
});
export type CreateMonitorLinkBody = z.infer<typeof CreateMonitorLinkBody>;

export const MonitorLink = z.object({
  _id: z.string(),
  name: z.string(),
  enterprise: z.object({ _id: z.string(), name: z.string() }),
  travels: z.array(z.object({ _id: z.string(), code: z.string(), route: z.string() })),
  devices: z.array(z.object({ _id: z.string(), name: z.string(), mac: z.string() })),
  created_by: z.object({ _id: z.string(), name: z.string() }).nullable(),
  created_at: IsoDate,
  expires_at: IsoDate,
  revoked_at: IsoDate.nullable(),
  last_used_at: IsoDate.nullable(),
  use_count: z.number().int(),
});
export type MonitorLink = z.infer<typeof MonitorLink>;
export const MonitorLinkList = z.array(MonitorLink);

export const CreatedMonitorLink = MonitorLink.extend({
  /** The secret token, in full: shown only in this answer (the server keeps its hash). */
  token: z.string(),
  /** The full address of the monitor page, to copy to the wall display. */
  url: z.string(),
});
export type CreatedMonitorLink = z.infer<typeof CreatedMonitorLink>;

export const MonitorTokenParam = z.object({ token: z.string().max(200) });

/** An open alarm of a monitored device (read-only: no acknowledgement from a monitor). */
export const MonitorAlarm = z.object({ _id: z.string(), type: z.string(), message: z.string(), started_at: IsoDate, acknowledged: z.boolean() });

/** A card of the monitor page: the travel card's shape, plus where the device is and its open alarms. */
export const MonitorDevice = TravelDevice.extend({
  /** `finished`: the card shows the last reading within the travel, where silence means nothing (ADR 0035). */
  travel: z.object({ _id: z.string(), code: z.string(), route: z.string(), finished: z.boolean() }).nullable(),
  last_position: LatLng.nullable(),
  alarms: z.array(MonitorAlarm),
});
export type MonitorDevice = z.infer<typeof MonitorDevice>;

/** GET /api/monitor/{token} and the socket's `snapshot` answer. */
export const MonitorView = z.object({
  name: z.string(),
  enterprise: z.object({ _id: z.string(), name: z.string() }),
  expires_at: IsoDate,
  devices: z.array(MonitorDevice),
  generated_at: IsoDate,
});
export type MonitorView = z.infer<typeof MonitorView>;

/**
 * Live updates of a monitor: Socket.IO namespace `/monitor`, handshake `auth: { token }` with the link's token.
 * Server → client `monitor-changed` when a reading, an alarm or a travel of the link changed; the client then asks
 * `emit('snapshot', {}, ack)` and gets MonitorSnapshotAck. The server disconnects the socket when the link is
 * revoked or expires.
 */
export const monitorTopics = {
  namespace: '/monitor',
  changed: 'monitor-changed',
  snapshot: 'snapshot',
} as const;

export const MonitorSnapshotAck = z.union([
  z.object({ ok: z.literal(true), view: MonitorView }),
  z.object({ ok: z.literal(false), status: z.number().int(), error: z.string() }),
]);
export type MonitorSnapshotAck = z.infer<typeof MonitorSnapshotAck>;
