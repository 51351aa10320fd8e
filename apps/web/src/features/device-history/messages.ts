/** Texts of the device-history screen (spec 001 §8 where it gives them). */
export const HISTORY_MESSAGES = {
  readingsLoadError: 'Não foi possível localizar pontos',
  eventsLoadError: 'Não foi possível carregar os eventos do dispositivo',
  alarmsLoadError: 'Não foi possível carregar os alarmes do dispositivo',
  deviceLoadError: 'Não foi possível encontrar o dispositivo',
  deviceUpdated: 'Dispositivo foi atualizado com sucesso',
  deviceUpdateError: 'Não foi possível atualizar o dispositivo',
  alarmAcknowledged: 'Alarme reconhecido com sucesso!',
  alarmAcknowledgeError: 'Não foi possível reconhecer o alarme',
  empty: 'Nada encontrado.',
} as const;
