/**
 * The contract schemas the device lists parse their answers with, loaded beside the requests (`schema: () =>
 * import('./schemas')...`) so that zod is not part of the screens' first load (ADR 0048). A dynamic import of
 * '@sentinela/contract' itself would bring the whole contract: this module names only what is used.
 */
export { DeviceList, HistoricCountResponse } from '@sentinela/contract';
