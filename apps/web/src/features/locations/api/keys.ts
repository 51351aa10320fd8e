export const locationKeys = {
  all: ['locations'] as const,
  list: ['locations', 'list'] as const,
  devices: ['locations', 'devices'] as const,
  groups: (locationId: string) => ['locations', 'groups', locationId] as const,
  geocoder: ['locations', 'geocoder'] as const,
  mappingStudies: ['locations', 'mapping-studies'] as const,
  studyDevices: (userId: string) => ['locations', 'study-devices', userId] as const,
};
