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
  deviceNotInTravel: 'Dispositivo não encontrado nesta viagem.',
  deviceNotFound: 'Dispositivo não encontrado nesta empresa.',
  deviceRepeated: 'O mesmo dispositivo foi escolhido mais de uma vez.',
  responsibleInvalid: 'O responsável deve ser um usuário ativo da mesma empresa da viagem.',
  responsibleNotFound: 'Responsável não encontrado nesta empresa.',
  enterpriseRequired: 'Informe a empresa da viagem.',
  enterpriseNotFound: 'Empresa não encontrada.',
  temperatureRange: 'A temperatura mínima deve ser menor que a máxima.',
  humidityRange: 'A umidade mínima deve ser menor que a máxima.',
  travelling: (name: string) => `O dispositivo "${name}" já está em outra viagem em andamento ou pausada.`,
  transition: (from: TravelStatusId, to: TravelStatusId) => `Não é possível passar de ${TRAVEL_STATUS_NAMES[from]} para ${TRAVEL_STATUS_NAMES[to]}.`,
} as const;
