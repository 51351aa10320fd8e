import { ALARM_TYPE_NAMES, type AlarmType } from '@sentinela/contract';

/** pt-BR number with two decimals and a decimal comma (P7): 8 → "8,00", -18.5 → "-18,50". */
export function formatDecimal(value: number): string {
  return value.toFixed(2).replace('.', ',');
}

/** An observed range, "8,50 °C - 9,20 °C", or "--" when nothing was observed. */
export function formatRange(min: number | null, max: number | null, unit: string): string {
  if (min === null && max === null) return '--';
  const part = (v: number | null) => (v === null ? '--' : `${formatDecimal(v)} ${unit}`);
  return `${part(min)} - ${part(max)}`;
}

/** The message an alarm is opened with, e.g. "Temperatura acima do limite máximo (8,00 °C)". */
export function alarmMessage(type: AlarmType, limit: number | null): string {
  const value = limit === null ? '' : ` (${formatDecimal(limit)} ${type.startsWith('temperature') ? '°C' : '%'})`;
  switch (type) {
    case 'temperature_high':
      return `Temperatura acima do limite máximo${value}`;
    case 'temperature_low':
      return `Temperatura abaixo do limite mínimo${value}`;
    case 'humidity_high':
      return `Umidade acima do limite máximo${value}`;
    case 'humidity_low':
      return `Umidade abaixo do limite mínimo${value}`;
    case 'no_data':
      return `Sem dados há mais de ${limit ?? 0} minutos`;
  }
}

export function alarmTypeName(type: string): string {
  return ALARM_TYPE_NAMES[type as AlarmType] ?? type;
}
