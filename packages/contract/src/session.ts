/** Session rules shared by server and client (P2, P4). */
export const SESSION_WINDOW_MS = 5 * 60 * 1000;
export const CLIENT_NAME = 'web';
export const CLIENT_VERSION = '1.1.0';
export const API_VERSION = '1.0.0';

/** Header names every request carries (spec 000 §7). Node lower-cases them on arrival. */
export const CLIENT_HEADERS = { client: 'client', clientVersion: 'clientVersion', clientOs: 'clientOs' } as const;

/** Error code of an ended session, over HTTP (401) and the Socket.IO handshake (`connect_error` data.code). */
export const SESSION_EXPIRED_CODE = 'SESSION_EXPIRED';
