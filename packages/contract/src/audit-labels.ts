/**
 * pt-BR names of what the audit trail records (X11): entities, actions, actors and fields. Shared by the screen
 * "Trilha de auditoria" and the trail's PDF and CSV exports, so both say the same.
 */

export const AUDIT_ENTITY_LABELS: Record<string, string> = {
  device: 'Dispositivo',
  device_user: 'Vínculo dispositivo–usuário',
  gateway: 'Gateway',
  gateway_device: 'Vínculo gateway–dispositivo',
  travel: 'Viagem',
  travel_device: 'Dispositivo da viagem',
  travel_code: 'Código de rastreio revogado',
  alarm: 'Alarme',
  user: 'Usuário',
  user_address: 'Endereço do usuário',
  notification_channel: 'Canal de notificação',
  enterprise: 'Empresa',
  enterprise_address: 'Endereço da empresa',
  location: 'Local',
  device_group: 'Grupo de dispositivos',
  monitor_link: 'Link de monitoramento',
  monitor_link_device: 'Dispositivo do link de monitoramento',
  monitor_link_travel: 'Viagem do link de monitoramento',
  report: 'Relatório',
  electronic_signature: 'Assinatura eletrônica',
  readings: 'Leituras',
  calibration: 'Calibração',
  mapping_study: 'Estudo de mapeamento térmico',
  mapping_study_sensor: 'Sensor do estudo de mapeamento',
  api_token: 'Token de API',
  webhook: 'Webhook',
  audit_trail: 'Trilha de auditoria',
};

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  create: 'Criação',
  update: 'Alteração',
  delete: 'Exclusão',
  sign_in: 'Entrada no sistema',
  sign_in_failed: 'Entrada recusada',
  download: 'Download',
  signature_failed: 'Assinatura recusada (senha incorreta)',
  signature_locked: 'Assinatura bloqueada',
  readings_removal: 'Remoção de leituras',
  export: 'Exportação da trilha',
};

export const AUDIT_ACTOR_TYPE_LABELS: Record<string, string> = {
  user: 'Usuário',
  api_token: 'Token de API',
  system: 'Sistema',
  anonymous: 'Visitante',
  database: 'Banco de dados (fora da aplicação)',
};

const FIELD_LABELS: Record<string, string> = {
  id: 'Identificador',
  name: 'Nome',
  username: 'Usuário',
  email: 'E-mail',
  phone: 'Telefone',
  mac: 'MAC',
  model: 'Modelo',
  enterprise_id: 'Empresa',
  location_id: 'Local',
  group_id: 'Grupo',
  device_id: 'Dispositivo',
  user_id: 'Usuário',
  travel_id: 'Viagem',
  gateway_id: 'Gateway',
  link_id: 'Link',
  profile_id: 'Perfil',
  password_hash: 'Senha',
  key_hash: 'Chave',
  token_hash: 'Token',
  code: 'Código de rastreio',
  temperature_min: 'Temperatura mínima',
  temperature_max: 'Temperatura máxima',
  humidity_min: 'Umidade mínima',
  humidity_max: 'Umidade máxima',
  out_of_range_minutes: 'Minutos fora da faixa',
  no_data_minutes: 'Minutos sem dados',
  report_interval_seconds: 'Intervalo esperado entre leituras (s)',
  disabled: 'Desativado',
  verified: 'E-mail confirmado',
  is_owner: 'Proprietário',
  status: 'Situação',
  started_at: 'Início',
  finished_at: 'Fim',
  ended_at: 'Encerrado em',
  active: 'Ativo',
  type: 'Tipo',
  message: 'Mensagem',
  acknowledged_at: 'Reconhecido em',
  acknowledged_by: 'Reconhecido por',
  acknowledge_message: 'Mensagem de reconhecimento',
  ack_signature_id: 'Assinatura do reconhecimento',
  approval_signature_id: 'Assinatura da aprovação',
  gxp: 'Modo GxP',
  reminder_minutes: 'Lembrete (minutos)',
  escalation_minutes: 'Escalonamento (minutos)',
  origin_address: 'Origem',
  destiny_address: 'Destino',
  responsible_user_id: 'Responsável',
  revoked_at: 'Revogado em',
  expires_at: 'Expira em',
  code_scope: 'Alcance do código',
  code_expires_at: 'Código expira em',
  code_revoked_at: 'Código revogado em',
  channel: 'Canal',
  meaning: 'Significado',
  printed_name: 'Nome do signatário',
  signed_at: 'Assinado em',
  record_type: 'Registro assinado',
  record_id: 'Identificador do registro',
  record_hash: 'Hash do registro',
  hash: 'Hash',
  outcome: 'Resultado',
  failures: 'Tentativas erradas',
  locked_until: 'Bloqueada até',
  reason: 'Motivo',
  sha256: 'SHA-256 do arquivo',
  file_size: 'Tamanho do arquivo',
  created_at: 'Criado em',
  created_by: 'Criado por',
  kind: 'Tipo de relatório',
  filters: 'Filtros',
  error: 'Erro',
  file_path: 'Arquivo',
  key_prefix: 'Início da chave',
  scopes: 'Escopos',
  token_prefix: 'Início do token',
  url: 'URL',
  events: 'Eventos',
  enabled: 'Ativo',
  disabled_reason: 'Motivo da desativação',
  description: 'Descrição',
};

export const auditFieldLabel = (key: string) => FIELD_LABELS[key] ?? key;

const OUTCOMES: Record<string, string> = { ok: 'Sucesso', wrong_password: 'Senha incorreta', disabled: 'Conta desativada', unknown_user: 'Usuário inexistente' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;


/**
 * A recorded value as the product shows it: dates through `instant` (the screen's local time, the export's report
 * time zone), yes/no, protected secrets, outcomes.
 */
export function formatAuditValue(key: string, value: unknown, instant: (iso: string) => string): string {
  if (value === null || value === undefined) return '—';
  if (value === '[redigido]') return '(protegido; alterado)';
  if (key === 'outcome' && typeof value === 'string') return OUTCOMES[value] ?? value;
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  if (typeof value === 'number') return value.toLocaleString('pt-BR', { maximumFractionDigits: 2 });
  if (typeof value === 'string' && ISO.test(value)) return instant(value);
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
