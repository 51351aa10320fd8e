import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Server } from 'socket.io';
import { ConnectionsPerAddress } from '../realtime/address-cap';
import { CodeExpiry } from '../realtime/code-expiry';
import { RoomAccess } from '../realtime/room-access';
import { useRedisAdapter } from '../realtime/redis-adapter';
import { authenticateSockets, disconnectEnded, SessionWatch, type RealtimeServer } from '../realtime/socket-auth';
import { isTravelUpdates, TravelFeed, travelUpdatesOf } from '../realtime/travel-feed';
import { sendTravelFrame } from '../realtime/travel-frames';
import { LocationRooms } from '../realtime/location-rooms';
import { AlarmRooms } from '../realtime/alarm-rooms';
import { MonitorRooms } from '../realtime/monitor-rooms';
import { devicesLinkedToUser } from '../modules/locations/repository';
import { handleTravelRooms, travelPositionRoom, travelRoom } from '../realtime/travel-rooms';
import type { AppServices } from '../services';
import type { AccessChangedEvent } from '../realtime/event-bus';

/** A travel's topics are sent at most this often; a burst within the window goes as one message. */
export const LIVE_INTERVAL_MS = 100;

declare module 'fastify' {
  interface FastifyInstance {
    io: RealtimeServer;
  }
}

/**
 * Live updates (T6): Socket.IO on the app's own HTTP server at /socket.io (attaching opens no port; the
 * server listens when the app does). Stored readings and travel changes reach the travels' rooms through
 * the feed; with REDIS_URL the rooms span every API process.
 */
async function realtime(app: FastifyInstance, { services }: { services: AppServices }) {
  const { config } = services;
  const perAddress = new ConnectionsPerAddress(
    config.socketsPerAddress,
    services.rateLimits.limit({ name: 'socket-handshakes', points: config.socketConnectsPerAddressPerMinute, windowSeconds: 60 }),
    config.trustProxy,
  );
  const io: RealtimeServer = new Server(app.server, {
    path: '/socket.io',
    serveClient: false,
    // Clients send small JSON messages (subscribe, unsubscribe); anything larger closes the connection unread.
    maxHttpBufferSize: config.socketMaxMessageBytes,
    allowRequest: perAddress.allowRequest,
  });
  perAddress.attach(io);
  app.decorate('io', io);
  services.metrics.setSocketCountSource(() => io.engine.clientsCount);

  const watch = new SessionWatch(services.sessions, services.clock, app.log);
  authenticateSockets(io, services.sessions, { trustProxy: config.trustProxy, log: app.log });
  const codeExpiry = new CodeExpiry({ travels: services.travels, log: app.log });
  handleTravelRooms(io, {
    codeExpiry,
    travels: services.travels,
    sessions: services.sessions,
    watch,
    codeAttempts: services.rateLimits.limit({ name: 'localizator-socket', points: config.localizatorMaxPerMinute, windowSeconds: 60 }),
    messagesPerMinute: config.socketSubscribesPerMinute,
    log: app.log,
  });
  const locationRooms = new LocationRooms(io, {
    sessions: services.sessions,
    watch,
    devicesOfUser: (userId) => devicesLinkedToUser(services.db, userId),
    messagesPerMinute: config.socketSubscribesPerMinute,
    log: app.log,
  });
  locationRooms.attach();
  const alarmRooms = new AlarmRooms(io, {
    db: services.db,
    sessions: services.sessions,
    watch,
    // In-process, a room without sockets here has no watchers; with Redis they may be on another process.
    watched: (room) => config.redisUrl !== undefined || io.of('/').adapter.rooms.has(room),
    messagesPerMinute: config.socketSubscribesPerMinute,
    log: app.log,
  });
  alarmRooms.attach();
  const monitorRooms = new MonitorRooms(io, {
    links: services.monitorLinks,
    lookups: services.rateLimits.limit({ name: 'monitor-lookups-socket', points: config.monitorLookupsPerMinute, windowSeconds: 60 }),
    messagesPerMinute: config.socketSubscribesPerMinute,
    trustProxy: config.trustProxy,
    clock: services.clock,
    log: app.log,
  });
  monitorRooms.attach();
  const monitorWatched = (room: string) => config.redisUrl !== undefined || monitorRooms.hasRoom(room);
  const access = new RoomAccess(io, { travels: services.travels, sessions: services.sessions, codeExpiry, log: app.log });

  let redis: { close(): Promise<void> } | null = null;
  // Every process runs its own feed for its own sockets: batches stored elsewhere arrive once per batch as
  // `travelUpdates` (below), not as one Redis message per room and flush (ADR 47).
  // (The adapter, and with it the map of rooms, is replaced when Redis is attached: looked up each time.)
  const hasLocalSockets = (room: string) => io.of('/').adapter.rooms.has(room);
  const frameTarget = { to: (rooms: string[]) => io.local.to(rooms), hasSockets: hasLocalSockets };
  const feed = new TravelFeed({
    loadCards: (travelIds) => services.travels.deviceCards(travelIds),
    // A travel without sockets here has no watchers on this process: no query, no emit.
    watched: (travelId) => hasLocalSockets(travelRoom(travelId)) || hasLocalSockets(travelPositionRoom(travelId)),
    send: (frame) => sendTravelFrame(frameTarget, frame),
    intervalMs: LIVE_INTERVAL_MS,
    log: app.log,
  });
  // A changed travel's room is checked before its watchers get the new cards: who lost it must not receive them.
  const travelChanged = (travelId: string) => {
    void access.travelChanged(travelId).finally(() => feed.travelChanged(travelId));
  };
  const accessChanged = (event: AccessChangedEvent) => {
    void access.accessChanged(event);
    void locationRooms.accessChanged(event);
    void alarmRooms.accessChanged(event);
  };
  // Other processes hold sockets of the same rooms: they check theirs too, and their feeds send the new cards
  // (the adapter forwards these through Redis).
  const shared = config.redisUrl !== undefined;
  io.on('travelChanged', travelChanged);
  io.on('travelUpdates', (updates) => {
    if (isTravelUpdates(updates)) feed.travelUpdates(updates);
    else app.log.error({ updates }, 'malformed travel updates from another process');
  });
  io.on('accessChanged', accessChanged);
  const unsubscribe = [
    services.events.on('readings.stored', (event) => {
      const updates = travelUpdatesOf(event);
      if (shared && updates.length > 0) io.serverSideEmit('travelUpdates', updates);
      feed.travelUpdates(updates);
      // In-process, a room without sockets here has no watchers; with Redis they may be on another process.
      locationRooms.readingsStored(event, (room) => shared || io.of('/').adapter.rooms.has(room));
      monitorRooms.readingsStored(event, monitorWatched);
    }),
    services.events.on('alarm.opened', (event) => monitorRooms.alarmChanged(event, monitorWatched)),
    services.events.on('alarm.closed', (event) => monitorRooms.alarmChanged(event, monitorWatched)),
    services.events.on('monitor-link.revoked', ({ linkId }) => monitorRooms.revoked(linkId)),
    services.events.on('travel.changed', ({ travelId }) => {
      travelChanged(travelId);
      monitorRooms.travelChanged(travelId, monitorWatched);
      if (shared) io.serverSideEmit('travelChanged', travelId);
    }),
    services.events.on('access.changed', (event) => {
      accessChanged(event);
      if (shared) io.serverSideEmit('accessChanged', event);
    }),
    services.events.on('sessions.ended', (ended) => disconnectEnded(io, ended)),
    services.events.on('alarm.opened', (event) => alarmRooms.alarmChanged(event, 'opened')),
    services.events.on('alarm.closed', (event) => alarmRooms.alarmChanged(event, 'closed')),
    services.events.on('alarm.acknowledged', (event) => alarmRooms.alarmChanged(event, 'acknowledged')),
  ];

  if (config.redisUrl) {
    const url = config.redisUrl;
    app.addHook('onReady', async () => {
      redis = await useRedisAdapter(io, url, app.log);
    });
  }

  // Sockets go before the HTTP server closes: an open WebSocket would keep it waiting. They are closed at the transport
  // (engine) level, not with a Socket.IO disconnect: clients see "transport close", the reason on which Socket.IO
  // clients reconnect by themselves (with their back-off) — the reconnect hint of a restart (X14). A server-side
  // disconnect ("io server disconnect") is what an ended session gets, and a client does not come back from it.
  app.addHook('preClose', async () => {
    for (const off of unsubscribe) off();
    await feed.close();
    await alarmRooms.close();
    watch.close();
    monitorRooms.close();
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    await redis?.close();
  });
}

export default fp(realtime, { name: 'realtime' });
