import { ALARM_TYPE_NAMES } from '@sentinela/contract';
import { alarmText, type AlarmFacts, type AlarmText } from './alarm-message';
import { quoteName } from '../mail/compose';

/** Whole minutes, said as people say them ("45 min", "2 h 05 min"). */
export function elapsedText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/**
 * A reminder (the alarm is still open and nobody acknowledged it) or an escalation (told to the enterprise's
 * administrators): the opening message, headed by what it is and for how long the alarm has been open at `at`.
 */
export function reminderText(f: AlarmFacts, event: 'reminder' | 'escalated', at: Date, options: { publicUrl: string; timeZone: string }): AlarmText {
  const base = alarmText(f, 'opened', options);
  const since = elapsedText(at.getTime() - f.startedAt.getTime());
  const name = ALARM_TYPE_NAMES[f.type];
  const [, ...details] = base.lines;
  if (event === 'reminder') {
    return { ...base, subject: `Lembrete: ${name} em ${quoteName(f.deviceName)}`, lines: [`⏰ Lembrete: alarme ainda ativo há ${since}, sem reconhecimento. ${f.message}`, ...details] };
  }
  return {
    ...base,
    subject: `Escalonado: ${name} em ${quoteName(f.deviceName)}`,
    lines: [`📣 Escalonado: alarme ativo há ${since} sem reconhecimento. ${f.message}`, ...details, 'Você recebe esta mensagem como administrador da empresa.'],
  };
}
