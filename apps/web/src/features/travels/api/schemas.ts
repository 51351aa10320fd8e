/**
 * The contract schema the travel list parses its answer with, loaded beside the request (`schema: () =>
 * import('./schemas')...`): the list is asked for by the route as soon as /directions is entered (ADR 0086), from the
 * entry, where zod is not (ADR 0048). A dynamic import of '@sentinela/contract' itself would bring the whole contract.
 */
export { TravelListResponse } from '@sentinela/contract';
