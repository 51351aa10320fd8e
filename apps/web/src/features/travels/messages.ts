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

/** Texts of the tracking link (ADR 36): the managers' panel and the Localizador. */
export const TRACKING_MESSAGES = {
  expiresAfterEnd: 'expira alguns dias após o fim da viagem (prazo padrão)',
  expiryHelp: 'Em branco: o prazo padrão, alguns dias após o fim da viagem.',
  invalidDate: 'Data inválida.',
  noLookups: 'nenhuma consulta ainda',
  saved: 'Link de rastreamento atualizado.',
  saveError: 'Não foi possível alterar o link de rastreamento',
  revoked: 'Link revogado. O código antigo não funciona mais.',
  regenerated: 'Novo código gerado. O código antigo não funciona mais.',
  revokeQuestion: 'Quem tiver o link não poderá mais acompanhar a viagem. Você poderá gerar um novo código depois.',
  regenerateQuestion: 'O código atual deixa de funcionar imediatamente e um novo código é criado. Envie o novo link a quem deve acompanhar a viagem.',
  goneTitle: 'Link indisponível',
  positionOnly: 'Este link mostra somente a posição da carga.',
  validUntil: 'Link válido até',
} as const;

/** Status actions offered on a travel row, per target status of TRAVEL_TRANSITIONS. */
export const STATUS_ACTION_LABELS = {
  fromPaused: 'Retomar',
  1: 'Iniciar',
  2: 'Finalizar',
  3: 'Pausar',
} as const;

export const STATUS_COLORS: Record<number, string> = { 0: 'gray', 1: 'blue', 2: 'green', 3: 'yellow' };
