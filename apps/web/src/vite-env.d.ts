/// <reference types="vite/client" />

/** Milliseconds since the epoch at which this bundle was built (see build-info-plugin.ts). */
declare const __BUILD_DATE__: number;
