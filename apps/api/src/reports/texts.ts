/** pt-BR texts of the reports (PDF and spreadsheet), in one place so both say the same thing. */
import { ALARM_TYPE_NAMES, CALIBRATION_MESSAGES, formatCalendarDate, type AlarmType } from '@sentinela/contract';
import type { ReportCalibration } from './types';
import type { ExcursionKind, Quantity } from './statistics';

export const REPORT_TEXTS = {
  brand: 'Sentinela',
  deviceTitle: 'Relatório de temperatura e umidade',
  travelTitle: 'Relatório de viagem',
  travelSubtitle: 'Temperatura e umidade por dispositivo',
  enterprise: 'Empresa',
  device: 'Dispositivo',
  mac: 'MAC',
  serial: 'Número de série',
  calibration: 'Calibração',
  period: 'Período',
  timeZone: 'Fuso horário',
  temperatureLimits: 'Limites de temperatura',
  humidityLimits: 'Limites de umidade',
  filters: 'Filtros de valores',
  travel: 'Viagem',
  travelCode: 'Código',
  status: 'Situação',
  origin: 'Origem',
  destination: 'Destino',
  route: 'Trajeto',
  responsible: 'Responsável',
  startedAt: 'Início',
  finishedAt: 'Término',
  positions: 'Posições registradas',
  distance: 'Distância percorrida',
  notYet: 'Não iniciada',
  notFinished: 'Em aberto',
  statistics: 'Estatísticas',
  readings: 'Leituras',
  firstReading: 'Primeira leitura',
  lastReading: 'Última leitura',
  quantity: 'Grandeza',
  minimum: 'Mínima',
  maximum: 'Máxima',
  mean: 'Média',
  mkt: 'Temperatura cinética média (MKT)',
  limits: 'Limites',
  timeOutOfRange: 'Tempo fora da faixa',
  excursions: 'Excursões',
  chart: 'Gráfico de temperatura e umidade',
  alarms: 'Alarmes',
  readingsTable: 'Leituras registradas',
  noReadings: 'Nenhuma leitura no período.',
  noExcursions: 'Nenhuma excursão no período.',
  noAlarms: 'Nenhum alarme no período.',
  notAcknowledged: 'Não reconhecido',
  active: 'Ativo',
  closed: 'Encerrado',
  dateTime: 'Data/Hora',
  temperatureColumn: 'Temperatura (°C)',
  humidityColumn: 'Umidade (%)',
  batteryColumn: 'Bateria (%)',
  latitude: 'Latitude',
  longitude: 'Longitude',
  outOfRangeColumn: 'Fora da faixa',
  yes: 'Sim',
  no: 'Não',
  type: 'Tipo',
  message: 'Mensagem',
  observed: 'Valores registrados',
  acknowledgement: 'Reconhecimento',
  start: 'Início',
  end: 'Fim',
  duration: 'Duração',
  extreme: 'Valor extremo',
  reportId: 'Relatório',
  generatedAt: 'Gerado em',
  issuer: 'Emitido por',
  devices: 'Dispositivos',
  summary: 'Resumo',
  coverage: 'Cobertura dos dados',
  coverageValue: 'Cobertura',
  expectedInterval: 'Intervalo esperado',
  gaps: 'Lacunas',
  gapTotal: 'Tempo sem dados',
  lostReadings: 'Leituras perdidas',
  noCounters: 'Não medidas (as leituras não trazem contador de sequência)',
  noGaps: 'Nenhuma lacuna no período.',
  moreGaps: (listed: number, total: number) => `As ${listed} primeiras de ${total} lacunas.`,
  signatureNote: 'Documento assinado digitalmente pela plataforma Sentinela.',
} as const;

export const QUANTITY_NAMES: Record<Quantity, string> = { temperature: 'Temperatura', humidity: 'Umidade' };
export const QUANTITY_UNITS: Record<Quantity, string> = { temperature: '°C', humidity: '%' };
export const EXCURSION_KIND_NAMES: Record<ExcursionKind, string> = { above: 'Acima do máximo', below: 'Abaixo do mínimo' };

/** An alarm type by its name ("Temperatura alta"); a type the contract does not know is printed as given. */
export function alarmTypeName(type: string): string {
  return ALARM_TYPE_NAMES[type as AlarmType] ?? type;
}

/** The footer's issuer line: "Gerado em 01/03/2026 10:00:00 (America/Sao_Paulo) por Nome (username)". */
export function generatedLine(generatedAt: string, timeZone: string, issuer: { name: string; username: string }): string {
  return `${REPORT_TEXTS.generatedAt} ${generatedAt} (${timeZone}) por ${issuer.name} (${issuer.username})`;
}

/** The footer's page number: "Página 2 de 7". */
export function pageLine(page: number, pages: number): string {
  return `Página ${page} de ${pages}`;
}

/**
 * The calibration line of a device (X12): "Certificado 123/2026, Lab X, válido até 15/03/2027", or the certificate with
 * "Calibração vencida (venceu em …)", or "Sem certificado de calibração".
 */
export function calibrationLine(calibration: ReportCalibration | undefined): string {
  if (!calibration || calibration.state === 'none') return CALIBRATION_MESSAGES.none;
  const certificate = `Certificado ${calibration.certificateNumber}, ${calibration.laboratory}`;
  const due = formatCalendarDate(calibration.dueAt);
  return calibration.state === 'overdue' ? `${certificate}: ${CALIBRATION_MESSAGES.overdue} (venceu em ${due})` : `${certificate}, válido até ${due}`;
}
