import { TRAVEL_STATUS_NAMES, type LatLng, type TrackingScope, type Travel, type TravelDevice, type TravelLocation, type TravelReading, type TravelStatusId } from '@sentinela/contract';
import type { TravelDeviceRow, TravelPointRow, TravelReadingRow, TravelRow } from './repository';

/** Rows → the documents' shapes (spec 001 §3). */

const position = (lat: number | null, lng: number | null): LatLng | null => (lat !== null && lng !== null ? [lat, lng] : null);

export function toTravelDevice(row: TravelDeviceRow): TravelDevice {
  return {
    _id: row.device_id,
    name: row.name,
    mac: row.mac,
    battery: { value: row.battery },
    temperature: { value: row.temperature },
    humidity: { value: row.humidity },
    last_update_date: row.last_update ? row.last_update.toISOString() : null,
    expectedIntervalSeconds: row.expected_interval_seconds === null ? null : Number(row.expected_interval_seconds),
    config: {
      temperature: { min: row.temperature_min, max: row.temperature_max },
      humidity: { min: row.humidity_min, max: row.humidity_max },
    },
  };
}

/** Cards by travel id, in the rows' order. */
export function groupTravelDevices(rows: readonly TravelDeviceRow[]): Map<string, TravelDevice[]> {
  const byTravel = new Map<string, TravelDevice[]>();
  for (const row of rows) {
    const list = byTravel.get(row.travel_id);
    if (list) list.push(toTravelDevice(row));
    else byTravel.set(row.travel_id, [toTravelDevice(row)]);
  }
  return byTravel;
}

/**
 * Who reads a travel: `full` (a user who may see it), or a holder of its tracking code, with the code's scope
 * (`readings`: cards with their readings; `position`: the map only). ADR 36.
 */
export type TravelView = 'full' | TrackingScope;

/**
 * A travel as the documents read it. The views of code holders leave out the responsible user, a person's name
 * (the enterprise stays, as the sender on any carrier's tracking page), and the link's use and revocation, which
 * are for its managers; the position-only view has no device cards (the caller passes none).
 */
export function toTravel(row: TravelRow, devices: TravelDevice[], view: TravelView, expiresAt: Date | null): Travel {
  const full = view === 'full';
  return {
    _id: row.id,
    code: row.code,
    status: row.status,
    status_name: TRAVEL_STATUS_NAMES[row.status as TravelStatusId] ?? String(row.status),
    user: view === 'full' && row.responsible_user_id && row.responsible_name ? { _id: row.responsible_user_id, name: row.responsible_name } : null,
    enterprise: row.enterprise_id && row.enterprise_name ? { _id: row.enterprise_id, name: row.enterprise_name } : null,
    origin: { address: row.origin_address, location: position(row.origin_lat, row.origin_lng) },
    destiny: { address: row.destiny_address, location: position(row.destiny_lat, row.destiny_lng) },
    devices: view === 'position' ? [] : devices,
    last_position: position(row.last_lat, row.last_lng),
    created_at: row.created_at.toISOString(),
    started_at: row.started_at ? row.started_at.toISOString() : null,
    finished_at: row.finished_at ? row.finished_at.toISOString() : null,
    view,
    tracking: {
      scope: row.code_scope,
      expires_at: expiresAt ? expiresAt.toISOString() : null,
      expires_at_chosen: full && row.code_expires_at ? row.code_expires_at.toISOString() : null,
      revoked_at: full && row.code_revoked_at ? row.code_revoked_at.toISOString() : null,
      lookups: full ? row.code_lookups : null,
      last_lookup_at: full && row.code_last_lookup_at ? row.code_last_lookup_at.toISOString() : null,
    },
  };
}

export function toTravelReading(row: TravelReadingRow, travelId: string, mac: string): TravelReading {
  return {
    createdAt: row.ts.toISOString(),
    temperature: row.temperature,
    humidity: row.humidity,
    battery: row.battery,
    lat: row.lat,
    lng: row.lng,
    travelId,
    mac,
  };
}

export function toTravelLocation(row: TravelPointRow): TravelLocation {
  return { createdAt: row.ts.toISOString(), location: [row.lat, row.lng], mac: row.mac };
}
