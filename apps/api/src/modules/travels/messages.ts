import { TRAVEL_STATUS_NAMES, type TravelStatusId } from '@sentinela/contract';

/** The pt-BR texts of travels that users read. */
export const TRAVEL_MESSAGES = {
  notFound: 'Viagem não encontrada.',
  codeNotFound: 'Viagem não encontrada para este código.',
  finished: 'Esta viagem já foi finalizada.',
  codeExpired: 'Este link de rastreamento expirou. Peça um novo código a quem enviou a carga.',
  codeRevoked: 'Este link de rastreamento foi revogado. Peça um novo código a quem enviou a carga.',
  expiryInPast: 'A validade do link deve ser uma data futura.',
  tooManyLookups: 'Muitas consultas ao localizador. Aguarde um minuto e tente novamente.',
  /** A position-only tracking link asked for readings (ADR 36, 72): the page's own words. */
  positionOnly: 'Este link mostra somente a posição da carga.',
  deviceNotInTravel: 'Dispositivo não encontrado nesta viagem.',
  deviceNotFound: 'Dispositivo não encontrado nesta empresa.',
  deviceRepeated: 'O mesmo dispositivo foi escolhido mais de uma vez.',
  responsibleInvalid: 'O responsável deve ser um usuário ativo da mesma empresa da viagem.',
  responsibleNotFound: 'Responsável não encontrado nesta empresa.',
  enterpriseRequired: 'Informe a empresa da viagem.',
  enterpriseNotFound: 'Empresa não encontrada.',
  temperatureRange: 'A temperatura mínima deve ser menor que a máxima.',
  humidityRange: 'A umidade mínima deve ser menor que a máxima.',
  /** Starting (or resuming) a travel whose device is on another travel in progress; `route` only within one enterprise. */
  runningElsewhere: (name: string, route: string | null) =>
    `O dispositivo "${name}" está em outra viagem em andamento${route ? ` (${route})` : ''}. Pause ou finalize aquela viagem antes de iniciar esta.`,
  /** Adding to a travel in progress a device that is on another travel in progress. */
  runningElsewhereAdd: (name: string, route: string | null) =>
    `O dispositivo "${name}" está em outra viagem em andamento${route ? ` (${route})` : ''}. Pause ou finalize aquela viagem antes de incluí-lo nesta, que já está em andamento.`,
  transition: (from: TravelStatusId, to: TravelStatusId) => `Não é possível passar de ${TRAVEL_STATUS_NAMES[from]} para ${TRAVEL_STATUS_NAMES[to]}.`,
} as const;
