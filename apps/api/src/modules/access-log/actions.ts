/**
 * What each call of a signed-in user did, as the access log's "Mensagem" column says it (M7, issue 26): in pt-BR, for
 * the administrator who reads a user's log, never a raw route such as "GET /api/subscription/standing (200)".
 * Keyed by `METHOD url` exactly as the route is registered (like openapi/operations.ts). Every route a session can
 * call must be here: apps/api/test/access-log.test.ts walks the app's routes and fails on a missing one.
 */
export const ACCESS_LOG_ACTIONS: Readonly<Record<string, string>> = {
  // Session and own account
  'GET /api/me': 'Consultou os próprios dados de acesso',
  'POST /api/logout': 'Saiu do sistema',
  'POST /api/session/presence': 'Manteve a sessão ativa numa tela acompanhada',
  'GET /api/user-client-id/:userId': 'Consultou a empresa de um usuário',
  'GET /api/profile': 'Consultou o próprio perfil',
  'POST /api/profile': 'Alterou o próprio perfil',
  'POST /api/profile/': 'Alterou o próprio perfil',
  'DELETE /api/profile/pending-email': 'Cancelou a alteração do próprio e-mail',
  'POST /api/me/change-password': 'Alterou a própria senha',
  'POST /api/verify-email/resend': 'Pediu novo e-mail de confirmação',

  // Notification settings
  'GET /api/me/config/notification-channel': 'Consultou os canais de notificação',
  'GET /api/me/config/notification-channel/status': 'Consultou os canais de notificação',
  'POST /api/me/config/notification-channel': 'Ativou um canal de notificação',
  'DELETE /api/me/config/notification-channel': 'Desativou um canal de notificação',
  'GET /api/me/push-subscriptions': 'Consultou os navegadores com notificações push',
  'POST /api/me/push-subscriptions': 'Ativou as notificações push num navegador',
  'DELETE /api/me/push-subscriptions': 'Desativou as notificações push num navegador',
  'GET /api/push/vapid-public-key': 'Preparou a ativação das notificações push',
  'POST /api/me/telegram/:chatId/link': 'Vinculou uma conversa do Telegram',
  'DELETE /api/me/telegram': 'Desvinculou o Telegram',
  'GET /api/enterprise/alarm-escalation': 'Consultou os lembretes e o escalonamento de alarmes',
  'PUT /api/enterprise/alarm-escalation': 'Alterou os lembretes e o escalonamento de alarmes',
  // GxP mode and the audit trail (X11)
  'GET /api/enterprise/compliance': 'Consultou o modo GxP da empresa',
  'PUT /api/enterprise/compliance': 'Alterou o modo GxP da empresa',
  'GET /api/enterprise/retention': 'Consultou a retenção de dados da empresa',
  'PUT /api/enterprise/retention': 'Alterou a retenção de dados da empresa',
  'GET /api/seals': 'Consultou o selo diário das leituras',
  'GET /api/seals/verify': 'Verificou o selo diário das leituras',
  'GET /api/audit-trail/export/:format': 'Exportou a trilha de auditoria assinada',
  'GET /api/devices/:id/calibrations': 'Consultou os certificados de calibração de um dispositivo',
  'POST /api/devices/:id/calibrations': 'Adicionou um certificado de calibração',
  'GET /api/calibrations/:id/certificate': 'Baixou um certificado de calibração',
  'GET /api/calibrations/due': 'Consultou as calibrações a vencer',
  'GET /api/calibrations/limits': 'Consultou os limites do certificado de calibração',
  'GET /api/mapping-studies': 'Consultou os estudos de mapeamento térmico',
  'POST /api/mapping-studies': 'Iniciou um estudo de mapeamento térmico',
  'GET /api/audit-trail': 'Consultou a trilha de auditoria',
  'GET /api/audit-trail/verify': 'Verificou a integridade da trilha de auditoria',

  // Devices, readings and alarms
  'GET /api/beacon-device/all': 'Consultou a lista de dispositivos',
  'GET /api/beacon-device/allAdmin': 'Consultou a lista de todos os dispositivos',
  'GET /api/devices-by-user/:userId': 'Consultou os dispositivos de um usuário',
  'GET /api/devices-by-client/:clientId': 'Consultou os dispositivos de uma empresa',
  'GET /api/show-beacon-device/:id': 'Consultou um dispositivo',
  'GET /api/beacon-device/:mac/historic-count': 'Consultou a quantidade de registros de um dispositivo',
  'GET /api/beacon-device/:mac/logs': 'Consultou os eventos de um dispositivo',
  'GET /api/beacon-device/:mac/notifications': 'Consultou os alarmes de um dispositivo',
  'GET /api/beacon-device/history/mac/:mac': 'Consultou o histórico de leituras de um dispositivo',
  'GET /api/beacon-device/history/mac/:mac/page': 'Consultou o histórico de leituras de um dispositivo',
  'GET /api/beacon-device/history/mac/:mac/series': 'Consultou os gráficos de um dispositivo',
  'GET /api/beacon-device/history/mac/:mac/coverage': 'Consultou a cobertura dos dados de um dispositivo',
  'GET /api/beacon-device/history/mac/:mac/pdf': 'Pediu um relatório PDF de um dispositivo',
  'GET /api/beacon-device/history/mac/:mac/excel': 'Pediu um relatório Excel de um dispositivo',
  'GET /api/beacon-device/discovered': 'Consultou os dispositivos descobertos pelos gateways',
  'GET /api/beacon-device/import-template': 'Baixou o modelo de planilha de dispositivos',
  'POST /api/beacon-device': 'Cadastrou um dispositivo',
  'POST /api/beacon-device/import': 'Importou dispositivos de uma planilha',
  'PUT /api/devices/:id': 'Alterou a configuração de um dispositivo',
  'POST /api/devices/update-name/:mac': 'Renomeou um dispositivo',
  'POST /api/devices/link/client': 'Vinculou dispositivos a uma empresa',
  'POST /api/devices/link/user': 'Vinculou dispositivos a um usuário',
  'GET /api/alarms/open': 'Consultou os alarmes ativos',
  'GET /api/alarms/:id/deliveries': 'Consultou as notificações enviadas de um alarme',
  'POST /api/alarms/:id/acknowledge': 'Reconheceu um alarme',

  // Travels
  'GET /api/travels': 'Consultou a lista de viagens',
  'GET /api/travels/:id': 'Consultou uma viagem',
  'GET /api/travels/:id/locations': 'Consultou o trajeto de uma viagem',
  'GET /api/travels/:id/devices/:mac/history': 'Consultou as leituras de um dispositivo numa viagem',
  'GET /api/travels/:id/devices/:mac/history/pdf': 'Pediu um relatório PDF de um dispositivo numa viagem',
  'GET /api/travels/:id/devices/:mac/history/excel': 'Pediu um relatório Excel de um dispositivo numa viagem',
  'GET /api/travels/:id/html': 'Pediu o relatório de uma viagem',
  'GET /api/travels/localizator/:cod': 'Rastreou uma viagem pelo código',
  'GET /api/travels/localizator/:cod/devices/:mac/history': 'Consultou pelo código de rastreio as leituras de um dispositivo',
  'GET /api/travels/localizator/:cod/devices/:mac/history/pdf': 'Pediu pelo código de rastreio um relatório PDF de um dispositivo',
  'GET /api/travels/localizator/:cod/devices/:mac/history/excel': 'Pediu pelo código de rastreio um relatório Excel de um dispositivo',
  'POST /api/travels': 'Cadastrou uma viagem',
  'PUT /api/travels/:id': 'Alterou uma viagem',
  'POST /api/travels/:id/status': 'Mudou a situação de uma viagem',
  'PUT /api/travels/edit-travel-device': 'Alterou um dispositivo numa viagem',
  'PUT /api/travels/:id/tracking-link': 'Alterou o código de rastreio de uma viagem',
  'POST /api/travels/:id/tracking-link/regenerate': 'Gerou um novo código de rastreio',
  'POST /api/travels/:id/tracking-link/revoke': 'Revogou o código de rastreio de uma viagem',

  // Reports
  'GET /api/reports': 'Consultou a lista de relatórios',
  'GET /api/reports/:id': 'Consultou um relatório',
  'POST /api/reports/:id/approve': 'Aprovou um relatório com assinatura eletrônica',
  'GET /api/report/files/:id': 'Baixou um relatório',
  'GET /api/travel-report/files/:id': 'Baixou o relatório de uma viagem',
  'GET /api/report/files/:id/status': 'Acompanhou a geração de um relatório',
  'GET /api/travel-report/files/:id/status': 'Acompanhou a geração do relatório de uma viagem',
  'GET /api/report/files/:id/:link/:name': 'Baixou um relatório pelo link',
  'GET /api/travel-report/files/:id/:link/:name': 'Baixou o relatório de uma viagem pelo link',
  'GET /api/reports/excel-template': 'Baixou o modelo de planilha de relatórios',
  'POST /api/reports/generate-reports-by-excel': 'Pediu relatórios por planilha',
  'POST /api/report/validate': 'Validou um relatório',

  // Locations
  'GET /api/locations': 'Consultou os locais',
  'GET /api/locations/devices': 'Consultou o mapa dos locais',
  'POST /api/locations': 'Cadastrou um local',
  'PUT /api/locations/:id': 'Alterou um local',
  'DELETE /api/locations/:id': 'Removeu um local',
  'GET /api/devices-groups/by-location/:locationId': 'Consultou os grupos de dispositivos de um local',
  'POST /api/devices-groups': 'Cadastrou um grupo de dispositivos',
  'PUT /api/devices-groups/:id': 'Alterou um grupo de dispositivos',
  'DELETE /api/devices-groups/:id': 'Removeu um grupo de dispositivos',
  'GET /api/geocoder': 'Consultou a busca de endereços',
  'GET /api/geocoder/search': 'Buscou um endereço no mapa',

  // Gateways and monitor links
  'GET /api/gateways': 'Consultou os gateways',
  'GET /api/gateways/connection': 'Consultou as instruções de conexão dos gateways',
  'POST /api/gateways': 'Criou um gateway',
  'PUT /api/gateways/:id': 'Renomeou um gateway',
  'DELETE /api/gateways/:id': 'Revogou um gateway',
  'GET /api/monitor-links': 'Consultou os links de monitoramento',
  'POST /api/monitor-links': 'Criou um link de monitoramento',
  'DELETE /api/monitor-links/:id': 'Revogou um link de monitoramento',

  // Users and enterprises
  'GET /api/access-log': 'Consultou o registro de acessos',
  'GET /api/acl/all': 'Consultou os perfis de usuário',
  'GET /api/user/show/:id': 'Consultou um usuário',
  'GET /api/users-by-client/:clientId': 'Consultou os usuários de uma empresa',
  'POST /api/user/create': 'Cadastrou um usuário',
  'POST /api/user/update/:id': 'Alterou um usuário',
  'DELETE /api/user/pending-email/:id': 'Cancelou a alteração de e-mail de um usuário',
  'POST /api/client-active-inactive': 'Ativou ou desativou um usuário',
  'POST /api/admin/users/:id/reset-password': 'Redefiniu a senha de um usuário',
  'POST /api/client/link/:enterpriseId': 'Vinculou um usuário a uma empresa',
  'GET /api/client-all': 'Consultou a lista de empresas',
  'GET /api/client/:id': 'Consultou uma empresa',
  'POST /api/client/create': 'Cadastrou uma empresa',
  'POST /api/client/create/': 'Cadastrou uma empresa',
  'GET /api/enterprise/address': 'Consultou o endereço da empresa',
  'POST /api/enterprise/address': 'Alterou o endereço da empresa',
  'GET /api/cep/:cep': 'Consultou um CEP',

  // Plans, subscription and billing
  'GET /api/enterprise/plan': 'Consultou o plano da empresa',
  'POST /api/enterprise/plan': 'Escolheu o plano da empresa',
  'GET /api/subscription': 'Consultou a assinatura da empresa',
  'GET /api/subscription/standing': 'Consultou a situação da assinatura',
  'PUT /api/subscription': 'Trocou o plano da empresa',
  'DELETE /api/subscription/pending-change': 'Cancelou a troca de plano agendada',
  'GET /api/invoices': 'Consultou as faturas',
  'GET /api/invoices/:id': 'Consultou uma fatura',
  'GET /api/invoices/:id/pdf': 'Baixou o PDF de uma fatura',
  'GET /api/invoices/:id/pix': 'Abriu o pagamento por PIX de uma fatura',
  'POST /api/invoices/:id/mark-paid': 'Marcou uma fatura como paga',
  'GET /api/financial/bank-account': 'Consultou os dados bancários para pagamento',
  'GET /api/cards': 'Consultou os cartões da empresa',
  'POST /api/cards': 'Adicionou um cartão',
  'POST /api/cards/:id/main': 'Escolheu o cartão principal',
  'DELETE /api/cards/:id': 'Removeu um cartão',
  'GET /api/admin/plans': 'Consultou os planos (administração)',
  'POST /api/admin/plans': 'Cadastrou um plano',
  'PUT /api/admin/plans/:id': 'Alterou um plano',
  'POST /api/admin/plans/:id/retire': 'Retirou um plano de oferta',
  'POST /api/admin/plans/:id/restore': 'Voltou a oferecer um plano',
  'DELETE /api/admin/plans/:id': 'Excluiu um plano',
  'GET /api/admin/faq': 'Consultou as perguntas frequentes (administração)',
  'POST /api/admin/faq': 'Cadastrou uma pergunta frequente',
  'PUT /api/admin/faq/:id': 'Alterou uma pergunta frequente',
  'PUT /api/admin/faq/order': 'Reordenou as perguntas frequentes',
  'DELETE /api/admin/faq/:id': 'Excluiu uma pergunta frequente',

  // Firmware
  'GET /api/firmwares': 'Consultou as versões de firmware',
  'GET /api/firmwares/limits': 'Consultou os limites de envio de firmware',
  'GET /api/firmwares/:id/download': 'Baixou um firmware',
  'POST /api/firmwares': 'Enviou uma versão de firmware',

  // Integrations (X13): readings export, API tokens, webhooks
  'GET /api/readings': 'Exportou leituras',
  'GET /api/api-tokens': 'Consultou os tokens de API',
  'POST /api/api-tokens': 'Criou um token de API',
  'DELETE /api/api-tokens/:id': 'Revogou um token de API',
  'GET /api/webhooks': 'Consultou os webhooks',
  'POST /api/webhooks': 'Cadastrou um webhook',
  'PUT /api/webhooks/:id': 'Alterou um webhook',
  'DELETE /api/webhooks/:id': 'Excluiu um webhook',
  'GET /api/webhooks/:id/deliveries': 'Consultou as entregas de um webhook',
  'POST /api/webhooks/:id/test': 'Testou um webhook',
  'POST /api/webhooks/:id/deliveries/:deliveryId/redeliver': 'Reenviou uma entrega de webhook',
};

/** A call refused or failed, by its status: what the administrator needs to know of it. */
function outcome(status: number): string {
  if (status < 400) return '';
  if (status === 400 || status === 413 || status === 415 || status === 422) return ' (recusado: dados inválidos)';
  if (status === 401) return ' (recusado: sessão expirada)';
  if (status === 402) return ' (recusado: assinatura restrita)';
  if (status === 403) return ' (recusado: acesso negado)';
  if (status === 404) return ' (não encontrado)';
  if (status === 409) return ' (recusado: conflito com o estado atual)';
  if (status === 429) return ' (recusado: excesso de requisições)';
  if (status >= 500) return ' (erro no servidor)';
  return ' (recusado)';
}

/** What a call not in the table did, by its method alone (a route added without its text: the test catches it). */
const BY_METHOD: Record<string, string> = {
  GET: 'Consultou dados',
  POST: 'Enviou dados',
  PUT: 'Alterou dados',
  PATCH: 'Alterou dados',
  DELETE: 'Excluiu dados',
};

/**
 * The access log's message for a call: "Consultou a situação da assinatura", "Reconheceu um alarme (recusado: acesso
 * negado)". `route` is the registered route (`/api/travels/:id`).
 */
export function describeAccess(method: string, route: string | undefined, status: number): string {
  const action = (route ? ACCESS_LOG_ACTIONS[`${method} ${route}`] : undefined) ?? BY_METHOD[method] ?? 'Acessou o sistema';
  return `${action}${outcome(status)}`;
}

/** Rows written before issue 26 hold the raw route ("GET /api/me (200)"); they are read with the same words. */
const RAW_MESSAGE = /^(GET|POST|PUT|PATCH|DELETE) \S+ \(\d{3}\)$/;

export function accessMessage(row: { message: string; method: string; path: string; status_code: number }): string {
  return RAW_MESSAGE.test(row.message) ? describeAccess(row.method, row.path, row.status_code) : row.message;
}
