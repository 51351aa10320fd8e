import { EventEmitter } from 'node:events';
import type { AlarmType } from '@sentinela/contract';

/** The newest state of a device after a stored batch (only values its newest reading carried change). */
export interface DeviceLiveState {
  deviceId: string;
  mac: string;
  enterpriseId: string | null;
  travelId: string | null;
  lastSyncAt: Date;
  temperature: number | null;
  humidity: number | null;
  battery: number | null;
  lat: number | null;
  lng: number | null;
  /** Readings of this device stored by the batch. */
  stored: number;
  /** The batch moved the device: its position (lat, lng) differs from the one before. */
  moved: boolean;
}

export interface ReadingsStoredEvent {
  devices: DeviceLiveState[];
  /** Travels in progress that received readings. */
  travelIds: string[];
}

export interface AlarmChangedEvent {
  alarmId: string;
  deviceId: string;
  enterpriseId: string | null;
  travelId: string | null;
  type: AlarmType;
  active: boolean;
}

/** What happens inside the process, for the realtime layer and for plugins that react to it. */
export interface AppEvents {
  'readings.stored': [ReadingsStoredEvent];
  'alarm.opened': [AlarmChangedEvent];
  'alarm.closed': [AlarmChangedEvent];
  /** Someone acknowledged an open or ended alarm (on a screen or from a chat). Emitted after it was saved. */
  'alarm.acknowledged': [AlarmChangedEvent];
  'gateway.revoked': [{ gatewayId: string }];
  /** A monitor link was revoked: its open monitors are disconnected (ADR 26). */
  'monitor-link.revoked': [{ linkId: string }];
  /** A travel's status, places or devices changed (its live subscribers get the new device cards). */
  'travel.changed': [{ travelId: string }];
  /** A report's generation finished (generated or failed), after its record committed. */
  'report.finished': [{ reportId: string }];
  /** Sessions ended before their expiry: one (logout), a user's (deactivation, password reset), an enterprise's. */
  'sessions.ended': [SessionsEndedEvent];
  /**
   * What a user (or every user of an enterprise) may see changed: devices linked or unlinked, profile or enterprise
   * changed, activated or deactivated. Their live sockets check their travel rooms again and leave those they no
   * longer qualify for. Emitted after the change committed.
   */
  'access.changed': [AccessChangedEvent];
}

export type SessionsEndedEvent = { sessionId: string } | { userId: string } | { enterpriseId: string };
export type AccessChangedEvent = { userId: string } | { enterpriseId: string };

/**
 * A typed in-process event bus. Events are emitted only after the transaction that caused them committed;
 * a listener that throws is logged and never breaks the emitter (ingestion must not fail because of a listener).
 */
export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor(private readonly log: { error: (obj: unknown, msg: string) => void } = { error: () => {} }) {
    this.emitter.setMaxListeners(0);
  }

  on<K extends keyof AppEvents>(event: K, listener: (...args: AppEvents[K]) => void): () => void {
    const wrapped = (...args: unknown[]) => {
      try {
        listener(...(args as AppEvents[K]));
      } catch (err) {
        this.log.error({ err, event }, 'event listener failed');
      }
    };
    this.emitter.on(event, wrapped);
    return () => this.emitter.off(event, wrapped);
  }

  emit<K extends keyof AppEvents>(event: K, ...args: AppEvents[K]): void {
    this.emitter.emit(event, ...args);
  }

  listenerCount(event: keyof AppEvents): number {
    return this.emitter.listenerCount(event);
  }
}
