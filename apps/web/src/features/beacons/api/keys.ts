/** Query keys of the beacon registry. */
export const beaconsKeys = {
  all: ['beacons'] as const,
  discovered: ['beacons', 'discovered'] as const,
};
