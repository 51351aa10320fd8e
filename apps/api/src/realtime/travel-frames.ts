import { travelTopics } from '@sentinela/contract';
import type { TravelFrame } from './travel-feed';
import { travelPositionRoom, travelRoom } from './travel-rooms';

/** Where a frame's messages go: `to(rooms).emit(...)`, on this process's sockets only (ADR 47). */
export interface FrameTarget {
  to(rooms: string[]): { emit(event: string, ...args: unknown[]): unknown };
  /** Whether this process holds sockets in the room (an emit to an empty room still encodes its message). */
  hasSockets(room: string): boolean;
}

/**
 * One travel's part of a flush, as Socket.IO messages (ADR 47). A socket that may see the readings gets
 * `travel-logs:{id}` with the device list and, when a device moved, the newest position as a second argument (what
 * the web app reads: one message carries both). The position also goes on its own topic, `travel-location-logs:{id}`,
 * to everyone who follows the travel — signed-in watchers included, since a client written from the documents moves
 * its marker on that topic only (spec 001 "Live updates"). Those who follow by a position-only code get only that,
 * never the cards.
 */
export function sendTravelFrame(target: FrameTarget, frame: TravelFrame): void {
  const { travelId, cards, location } = frame;
  const full = travelRoom(travelId);
  const positionOnly = travelPositionRoom(travelId);
  const present = (rooms: string[]) => rooms.filter((room) => target.hasSockets(room));
  if (cards && target.hasSockets(full)) {
    if (location) target.to([full]).emit(travelTopics.devices(travelId), cards, location);
    else target.to([full]).emit(travelTopics.devices(travelId), cards);
  }
  if (location) {
    const rooms = present([full, positionOnly]);
    if (rooms.length > 0) target.to(rooms).emit(travelTopics.location(travelId), location);
  }
  if (frame.changed) {
    const rooms = present([full, positionOnly]);
    if (rooms.length > 0) target.to(rooms).emit(travelTopics.changed(travelId), { travelId });
  }
}
