import { z } from './zod-locale';
import { IsoDate } from './common';
import { cleanText } from './values';

/** Gateways forward beacon readings; each holds an API key shown once, at creation (D5). */
export const CreateGatewayBody = z.object({
  name: cleanText('O nome', { min: 1, max: 80, requiredMessage: 'Informe o nome do gateway.' }),
  /** Super admin only: the enterprise whose devices the gateway may write. An enterprise admin's gateway is its enterprise's. */
  enterprise_id: z.uuid('Empresa inválida.').nullish(),
});
export type CreateGatewayBody = z.infer<typeof CreateGatewayBody>;

export const Gateway = z.object({
  _id: z.string(),
  name: z.string(),
  /** The first characters of the key, to tell keys apart without revealing them. */
  key_prefix: z.string(),
  enterprise: z.object({ _id: z.string(), name: z.string() }).nullable(),
  created_at: IsoDate,
  revoked_at: IsoDate.nullable(),
  last_seen_at: IsoDate.nullable(),
  /** Readings rejected from this gateway today (UTC). */
  rejected_today: z.number().int(),
});
export type Gateway = z.infer<typeof Gateway>;

export const GatewayList = z.array(Gateway);

export const CreatedGateway = Gateway.extend({
  /** The API key, in full: shown only in this answer. */
  key: z.string(),
});
export type CreatedGateway = z.infer<typeof CreatedGateway>;

export const RenameGatewayBody = z.object({
  name: cleanText('O nome', { min: 1, max: 80, requiredMessage: 'Informe o nome do gateway.' }),
});
export type RenameGatewayBody = z.infer<typeof RenameGatewayBody>;

/** The MQTT topic readings are published to; `{mac}` is the beacon's MAC address. */
export const GATEWAY_MQTT_TOPIC = 'devices/{mac}/readings';
/** The topics a Ruuvi Gateway publishes to with its default prefix (`ruuvi/{gateway mac}/`), one per tag (ADR 33). */
export const RUUVI_MQTT_TOPIC = 'ruuvi/{gateway_mac}/{mac}';

/**
 * GET /api/gateways/connection: where this server takes readings, as configured, for the instructions shown with a
 * new key. `mqtt` is null when gateway keys cannot be used over MQTT here (MQTT off, or an external broker whose
 * readings all belong to one configured key).
 */
export const GatewayConnection = z.object({
  http: z.object({ url: z.string() }),
  mqtt: z
    .object({
      host: z.string(),
      port: z.number().int().nullable(),
      /** MQTT over TLS (mqtts), when the server has a certificate. */
      tls_port: z.number().int().nullable(),
      topic: z.string(),
    })
    .nullable(),
  /**
   * A Ruuvi Gateway set up as it is (README "Ruuvi Gateway and other BLE sensors"): its custom HTTP(S) server URL, and
   * the topic it publishes to through this server's broker (null without one; host and ports are `mqtt`'s).
   */
  ruuvi: z.object({ http_url: z.string(), mqtt_topic: z.string().nullable() }),
});
export type GatewayConnection = z.infer<typeof GatewayConnection>;
