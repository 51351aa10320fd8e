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
 * One travel's part of a flush, as Socket.IO messages (ADR 47). A socket that may see the readings gets ONE message
 * per flush: `travel-logs:{id}` with the device list and, when a device moved, the newest position as a second
 * argument — one write per socket instead of two, on the server and in every client. Those who follow the travel
 * by a position-only code get the position alone (`travel-location-logs:{id}`), never the cards. A position
 * without cards (their query failed) goes on its own topic to both rooms.
 */
export function sendTravelFrame(target: FrameTarget, frame: TravelFrame): void {
  const { travelId, cards, location } = frame;
  const full = travelRoom(travelId);
  const positionOnly = travelPositionRoom(travelId);
  const present = (rooms: string[]) => rooms.filter((room) => target.hasSockets(room));
  if (cards) {
    if (target.hasSockets(full)) {
      if (location) target.to([full]).emit(travelTopics.devices(travelId), cards, location);
      else target.to([full]).emit(travelTopics.devices(travelId), cards);
    }
    if (location && target.hasSockets(positionOnly)) target.to([positionOnly]).emit(travelTopics.location(travelId), location);
  } else if (location) {
    const rooms = present([full, positionOnly]);
    if (rooms.length > 0) target.to(rooms).emit(travelTopics.location(travelId), location);
  }
  if (frame.changed) {
    const rooms = present([full, positionOnly]);
    if (rooms.length > 0) target.to(rooms).emit(travelTopics.changed(travelId), { travelId });
  }
}
