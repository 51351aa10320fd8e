import type { ColumnType, Generated } from 'kysely';

/** Row types of the database, one interface per table. Keep in step with migrations/. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface ProfilesTable { id: number; name: string }

export interface EnterprisesTable {
  id: Generated<string>;
  name: string;
  email: string | null;
  disabled: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface UsersTable {
  id: Generated<string>;
  name: string;
  username: string;
  email: string;
  phone: string | null;
  password_hash: string;
  profile_id: number;
  enterprise_id: string | null;
  is_owner: Generated<boolean>;
  disabled: Generated<boolean>;
  verified: Generated<boolean>;
  telegram_chat_id: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface UserAddressesTable {
  user_id: string;
  cep: string | null; number: string | null; address: string | null; neighbourhood: string | null;
  city: string | null; uf: string | null; ibge: string | null;
  updated_at: UpdatedAt;
}

export interface SessionsTable {
  id: Generated<string>;
  token_hash: Buffer;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  client: string | null; client_version: string | null; client_os: string | null; ip: string | null;
}

export interface EmailVerificationsTable {
  token_hash: Buffer; user_id: string; expires_at: Timestamp; used_at: Timestamp | null;
}

export interface PasswordResetsTable {
  id: Generated<string>; user_id: string; code_hash: string; expires_at: Timestamp;
  attempts: Generated<number>; used_at: Timestamp | null; created_at: CreatedAt;
}

export interface LocationsTable {
  id: Generated<string>; enterprise_id: string; name: string; address: string | null;
  latitude: number | null; longitude: number | null; created_at: CreatedAt;
}

export interface DeviceGroupsTable { id: Generated<string>; location_id: string; name: string }

export interface DevicesTable {
  id: Generated<string>;
  num: Generated<number>;
  mac: string;
  name: string;
  model: string | null;
  key: string | null;
  enterprise_id: string | null;
  location_id: string | null;
  group_id: string | null;
  temperature_min: number | null; temperature_max: number | null;
  humidity_min: number | null; humidity_max: number | null;
  out_of_range_minutes: Generated<number>;
  no_data_minutes: number | null;
  last_sync_at: Timestamp | null;
  last_battery: number | null; last_temperature: number | null; last_humidity: number | null;
  last_lat: number | null; last_lng: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface DeviceUsersTable { device_id: string; user_id: string; created_at: CreatedAt }

export interface GatewaysTable {
  id: Generated<string>; enterprise_id: string | null; name: string; key_hash: Buffer; key_prefix: string;
  created_by: string | null; created_at: CreatedAt; revoked_at: Timestamp | null;
  last_seen_at: Timestamp | null;
}
export interface GatewayDevicesTable { gateway_id: string; device_id: string }

export interface TravelsTable {
  id: Generated<string>;
  enterprise_id: string | null;
  code: string;
  status: Generated<number>;
  responsible_user_id: string | null;
  created_by: string | null;
  origin_address: string; origin_lat: number | null; origin_lng: number | null;
  destiny_address: string; destiny_lat: number | null; destiny_lng: number | null;
  last_lat: number | null; last_lng: number | null;
  started_at: Timestamp | null; finished_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface TravelDevicesTable {
  travel_id: string; device_id: string; name: string | null;
  temperature_min: number | null; temperature_max: number | null;
  humidity_min: number | null; humidity_max: number | null;
}

export interface ReadingsTable {
  device_num: number;
  ts: Timestamp;
  temperature: number | null;
  humidity: number | null;
  battery: number | null;
  lat: number | null;
  lng: number | null;
  travel_id: string | null;
  received_at: CreatedAt;
}

export interface AlarmsTable {
  id: Generated<string>; device_id: string; travel_id: string | null; type: string; message: string;
  started_at: Timestamp; ended_at: Timestamp | null; active: Generated<boolean>;
  temperature_min: number | null; temperature_max: number | null;
  humidity_min: number | null; humidity_max: number | null;
  acknowledged_at: Timestamp | null; acknowledged_by: string | null; acknowledge_message: string | null;
  created_at: CreatedAt;
}

export interface AlarmExcursionsTable {
  device_id: string; type: string; started_at: Timestamp; last_at: Timestamp;
  temperature_min: number | null; temperature_max: number | null;
  humidity_min: number | null; humidity_max: number | null;
}

export interface IngestRejectionsTable {
  gateway_id: string; day: ColumnType<string, string, string>; reason: string; count: number;
  last_mac: string | null; last_at: Timestamp;
}

export interface DomainEventsTable {
  id: Generated<number>; kind: string; payload: Json<unknown>; created_at: CreatedAt; processed_at: Timestamp | null;
}

export interface DeviceEventsTable {
  id: Generated<number>; device_id: string; type: string; message: string; user_id: string | null;
  client: string | null; client_version: string | null; client_os: string | null; api_version: string;
  created_at: CreatedAt;
}

export interface AccessLogTable {
  id: Generated<number>; created_at: Timestamp; user_id: string | null; enterprise_id: string | null;
  client: string | null; client_version: string | null; client_os: string | null; ip: string | null;
  api_version: string; method: string; path: string; status_code: number; message: string;
}

export interface ReportsTable {
  id: Generated<string>; enterprise_id: string | null; user_id: string | null; device_id: string | null;
  travel_id: string | null; kind: string; type: string; status: Generated<number>; error: string | null;
  filters: Json<Record<string, unknown>>; file_path: string | null; file_size: number | null; sha256: string | null;
  created_at: CreatedAt; updated_at: UpdatedAt;
  /** Its place in the fair report queue (ADR 13): lower turns are generated first. */
  queue_turn: Generated<number>;
}

export interface FirmwaresTable {
  id: Generated<string>; version: string; version_number: number; notes: Generated<string>;
  file_name: string; file_path: string; file_size: number; created_by: string | null; created_at: CreatedAt;
}

export interface PlansTable { id: Generated<string>; name: string; position: Generated<number> }
export interface PlanCyclesTable {
  id: Generated<string>; plan_id: string; name: string; value: number; features: Json<string[]>;
}
export interface SubscriptionsTable { enterprise_id: string; plan_cycle_id: string; started_at: CreatedAt }
export interface PaymentCardsTable {
  id: Generated<string>; enterprise_id: string; brand: string; last4: string; holder: string; expiry: string;
  is_main: Generated<boolean>; created_at: CreatedAt;
}
export interface InvoicesTable {
  id: Generated<string>; enterprise_id: string; issued_at: Timestamp; mode: string; transaction: string | null;
  method: string; value: number; pending: Generated<boolean>; paid_at: Timestamp | null;
}
export interface FaqTable { id: Generated<string>; question: string; answer: string; position: Generated<number> }
export interface NotificationChannelsTable { user_id: string; channel: string }
export interface ContactMessagesTable {
  id: Generated<string>; name: string; email: string; phone: string; message: string;
  created_at: CreatedAt; forwarded_at: Timestamp | null;
}

export interface SpentChallengesTable { challenge_id: string; expires_at: Timestamp }
export interface EnterpriseAddressesTable {
  enterprise_id: string;
  cep: string; number: string; address: string; neighbourhood: string; city: string; uf: string; ibge: string | null;
  updated_by: string | null; updated_at: Timestamp;
}
export interface PlanChangeRequestsTable {
  id: Generated<string>; enterprise_id: string; plan_cycle_id: string; requested_by: string | null;
  requested_at: Timestamp; status: Generated<string>;
}

export interface Database {
  profiles: ProfilesTable;
  enterprises: EnterprisesTable;
  users: UsersTable;
  user_addresses: UserAddressesTable;
  sessions: SessionsTable;
  email_verifications: EmailVerificationsTable;
  password_resets: PasswordResetsTable;
  locations: LocationsTable;
  device_groups: DeviceGroupsTable;
  devices: DevicesTable;
  device_users: DeviceUsersTable;
  gateways: GatewaysTable;
  gateway_devices: GatewayDevicesTable;
  travels: TravelsTable;
  travel_devices: TravelDevicesTable;
  readings: ReadingsTable;
  alarms: AlarmsTable;
  alarm_excursions: AlarmExcursionsTable;
  ingest_rejections: IngestRejectionsTable;
  domain_events: DomainEventsTable;
  device_events: DeviceEventsTable;
  access_log: AccessLogTable;
  reports: ReportsTable;
  firmwares: FirmwaresTable;
  plans: PlansTable;
  plan_cycles: PlanCyclesTable;
  subscriptions: SubscriptionsTable;
  payment_cards: PaymentCardsTable;
  invoices: InvoicesTable;
  faq: FaqTable;
  notification_channels: NotificationChannelsTable;
  contact_messages: ContactMessagesTable;
  spent_challenges: SpentChallengesTable;
  enterprise_addresses: EnterpriseAddressesTable;
  plan_change_requests: PlanChangeRequestsTable;
}
