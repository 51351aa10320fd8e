/** Texts of the open-alarms badge and list (pt-BR). */
export const OPEN_ALARMS_MESSAGES = {
  title: 'Alarmes ativos',
  empty: 'Nenhum alarme ativo.',
  loadError: 'Não foi possível carregar os alarmes ativos.',
  acknowledged: 'Alarme reconhecido.',
  acknowledgeError: 'Não foi possível reconhecer o alarme.',
  more: (shown: number, total: number) => `Mostrando os ${shown} mais recentes de ${total} alarmes ativos.`,
} as const;

/** The badge's accessible name, with the count when known. */
export function badgeLabel(count: number | null): string {
  if (count === null) return 'Alarmes ativos';
  if (count === 0) return 'Alarmes ativos: nenhum';
  return `Alarmes ativos: ${count}`;
}
