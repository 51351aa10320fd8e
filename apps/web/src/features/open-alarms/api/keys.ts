/** Query keys of the open-alarms list (the header badge's). */
export const openAlarmKeys = {
  list: ['open-alarms'] as const,
};
