/** Query keys of the link screen. */
export const linkKeys = {
  all: ['device-links'] as const,
  candidates: (mode: string, id: string) => ['device-links', 'candidates', mode, id] as const,
  user: (id: string) => ['device-links', 'user', id] as const,
};
