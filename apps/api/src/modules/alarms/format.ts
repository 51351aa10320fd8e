import { ALARM_TYPE_NAMES, formatDecimal, pluralize, type AlarmType } from '@sentinela/contract';

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
      return `Sem dados há mais de ${pluralize(limit ?? 0, 'minuto', 'minutos')}`;
  }
}

export function alarmTypeName(type: string): string {
  return ALARM_TYPE_NAMES[type as AlarmType] ?? type;
}
