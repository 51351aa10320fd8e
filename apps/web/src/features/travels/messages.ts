/** Texts of the travel screens (spec 001 §2, §8 where they give them). */
export const TRAVEL_MESSAGES = {
  listLoadError: 'Não foi possível localizar viagens',
  listEmpty: 'Nenhum registro de viagem encontrado.',
  readingsLoadError: 'Não foi possível localizar pontos',
  readingsEmpty: 'Nenhum registro de marcação encontrado.',
  devicesLoadError: 'Não foi possível encontrar dispositivos',
  devicesEmpty: 'Nenhum dispositivo nesta viagem.',
  routeLoading: 'Aguarde.. Carregando rota...',
  routeLoadError: 'Não foi possível localizar esse trajeto',
  dataLoading: 'Aguarde.. Carregando dados...',
  noTravel: 'Trajeto não selecionado',
  deviceUpdated: 'Dispositivo foi atualizado com sucesso',
  deviceUpdateError: 'Não foi possível atualizar o dispositivo',
  travelCreated: 'Viagem cadastrada com sucesso!',
  travelCreateError: 'Não foi possível cadastrar a viagem',
  travelUpdated: 'Viagem alterada com sucesso!',
  travelUpdateError: 'Não foi possível alterar a viagem',
  statusError: 'Não foi possível alterar o status da viagem',
  chartEmpty: 'Nada encontrado.',
  errorTitle: 'Erro!',
  successTitle: 'Sucesso!',
} as const;

/** Status actions offered on a travel row, per target status of TRAVEL_TRANSITIONS. */
export const STATUS_ACTION_LABELS = {
  fromPaused: 'Retomar',
  1: 'Iniciar',
  2: 'Finalizar',
  3: 'Pausar',
} as const;

export const STATUS_COLORS: Record<number, string> = { 0: 'gray', 1: 'blue', 2: 'green', 3: 'yellow' };
