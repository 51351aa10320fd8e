import { ALARM_TYPE_NAMES, formatQuantity, type AlarmType } from '@sentinela/contract';
import { zonedClock } from '../../reports/format';
import { quoteName } from '../mail/compose';

/** What an alarm message says: the alarm, its device and travel, and where to see more. */
export interface AlarmFacts {
  type: AlarmType;
  message: string;
  startedAt: Date;
  endedAt: Date | null;
  temperatureMin: number | null;
  temperatureMax: number | null;
  humidityMin: number | null;
  humidityMax: number | null;
  deviceName: string;
  mac: string;
  deviceId: string;
  travel: string | null;
  acknowledged: { by: string | null; at: Date } | null;
}

const MEASURES: Record<AlarmType, string> = {
  temperature_high: 'Temperatura',
  temperature_low: 'Temperatura',
  humidity_high: 'Umidade',
  humidity_low: 'Umidade',
  no_data: 'Sem dados',
};

/** The value that crossed the limit: the highest seen for a "high" alarm, the lowest for a "low" one. */
function valueOf(f: AlarmFacts): string {
  const pick = (v: number | null, unit: string) => (v === null ? '--' : formatQuantity(v, unit));
  switch (f.type) {
    case 'temperature_high':
      return pick(f.temperatureMax, '°C');
    case 'temperature_low':
      return pick(f.temperatureMin, '°C');
    case 'humidity_high':
      return pick(f.humidityMax, '%');
    case 'humidity_low':
      return pick(f.humidityMin, '%');
    case 'no_data':
      return 'nenhuma leitura';
  }
}

/**
 * The limit, as the alarm's own message states it ("… (8,00 °C)", "Sem dados há mais de 30 minutos"): the message
 * was written with the limit in force when the alarm opened, which the device's settings may no longer hold.
 */
function limitOf(f: AlarmFacts): string {
  if (f.type === 'no_data') return /(\d+ minutos?)/.exec(f.message)?.[1] ?? '--';
  return /\(([^()]+)\)$/.exec(f.message)?.[1] ?? '--';
}

export function historyUrl(publicUrl: string, f: Pick<AlarmFacts, 'mac' | 'deviceId'>): string {
  return `${publicUrl}/device-history/${encodeURIComponent(f.mac)}/${encodeURIComponent(f.deviceId)}`;
}

export interface AlarmText {
  subject: string;
  lines: string[];
  url: string;
}

/**
 * The message of an alarm that opened ('opened') or ended ('ended'), in pt-BR, times in the given zone. Names users
 * chose (device, travel, who acknowledged) are quoted the platform's one way (`quoteName`), on every channel.
 */
export function alarmText(f: AlarmFacts, event: 'opened' | 'ended', options: { publicUrl: string; timeZone: string }): AlarmText {
  const clock = zonedClock(options.timeZone);
  const name = ALARM_TYPE_NAMES[f.type];
  const subject = event === 'opened' ? `Alarme: ${name} em ${quoteName(f.deviceName)}` : `Alarme encerrado: ${name} em ${quoteName(f.deviceName)}`;
  const lines = [
    event === 'opened' ? `🚨 ${f.message}` : `✅ Alarme encerrado: ${f.message}`,
    `Dispositivo: ${quoteName(f.deviceName)} (${f.mac})`,
    ...(f.travel ? [`Viagem: ${quoteName(f.travel)}`] : []),
    `Medida: ${MEASURES[f.type]}`,
    `Valor: ${valueOf(f)}`,
    `Limite: ${limitOf(f)}`,
    `Desde: ${clock.dateTimeMinutes(f.startedAt)}`,
    ...(f.endedAt ? [`Até: ${clock.dateTimeMinutes(f.endedAt)}`] : []),
    ...(f.acknowledged ? [`Reconhecido${f.acknowledged.by ? ` por ${quoteName(f.acknowledged.by)}` : ''} em ${clock.dateTimeMinutes(f.acknowledged.at)}`] : []),
  ];
  return { subject, lines, url: historyUrl(options.publicUrl, f) };
}

/** The same message as Telegram text: lines, then the history link. */
export function telegramText(text: AlarmText): string {
  return [...text.lines, '', `Histórico do dispositivo: ${text.url}`].join('\n');
}

/** An alarm's message in separate short fields, for channels that compose their own text (SMS, WhatsApp templates). */
export interface AlarmParts {
  /** "Temperatura alta" */
  name: string;
  device: string;
  travel: string | null;
  measure: string;
  value: string;
  limit: string;
  since: string;
  until: string | null;
  url: string;
}

export function alarmParts(f: AlarmFacts, options: { publicUrl: string; timeZone: string }): AlarmParts {
  const clock = zonedClock(options.timeZone);
  return {
    name: ALARM_TYPE_NAMES[f.type],
    device: f.deviceName,
    travel: f.travel,
    measure: MEASURES[f.type],
    value: valueOf(f),
    limit: limitOf(f),
    since: clock.dateTimeMinutes(f.startedAt),
    until: f.endedAt ? clock.dateTimeMinutes(f.endedAt) : null,
    url: historyUrl(options.publicUrl, f),
  };
}
