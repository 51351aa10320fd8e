import type { AlarmParts } from '../alarm-message';

/** What a message tells of its alarm: the opening, the end, or a reminder or escalation of an open alarm (ADR 24). */
export type PhoneEvent = { kind: 'opened' | 'ended' } | { kind: 'reminder' | 'escalated'; openFor: string };

/** A reminder's or escalation's heading, before the opening's facts. */
function reminderHead(event: PhoneEvent): string {
  if (event.kind === 'reminder') return `Lembrete, ativo há ${event.openFor} sem reconhecimento: `;
  if (event.kind === 'escalated') return `Escalonado, ativo há ${event.openFor} sem reconhecimento: `;
  return '';
}

/** Names cut to fit a short message; the link carries the rest. */
function short(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function where(parts: AlarmParts): string {
  return `${short(parts.device, 40)}${parts.travel ? ` (viagem ${short(parts.travel, 40)})` : ''}`;
}

function reading(parts: AlarmParts): string {
  // "Sem dados" has no value: what it says is how long the device has been silent.
  return parts.measure === 'Sem dados' ? `sem leituras há mais de ${parts.limit}` : `valor ${parts.value}, limite ${parts.limit}`;
}

/**
 * The SMS of an alarm (ADR 23): one short paragraph, at most about 300 characters (two or three segments; the
 * accents of Portuguese make them 70-character UCS-2 segments anyway), with the device, travel, measure, value,
 * limit, since when and the link to the device history, which is never cut.
 */
export function smsText(parts: AlarmParts, event: PhoneEvent): string {
  if (event.kind !== 'ended') return `Sentinela: ALARME ${reminderHead(event)}${parts.name} em ${where(parts)}: ${reading(parts)}, desde ${parts.since}. ${parts.url}`;
  return `Sentinela: alarme encerrado, ${parts.name} em ${where(parts)}: ${reading(parts)}, de ${parts.since} até ${parts.until ?? '--'}. ${parts.url}`;
}

/**
 * The five body parameters of the WhatsApp templates, in order (README and ADR 23 give the template texts): device
 * (and travel), alarm and value, limit, since when (and until when, for an ended alarm), link. Reminders and escalations go by the opening's template, their heading
 * before the value. WhatsApp refuses
 * parameters with line breaks, tabs or more than four spaces in a row, so each is one line.
 */
export function whatsappParameters(parts: AlarmParts, event: PhoneEvent): string[] {
  const value = `${reminderHead(event)}${parts.measure === 'Sem dados' ? 'Sem dados' : `${parts.name}, ${parts.value}`}`;
  const when = event.kind === 'ended' ? `${parts.since} até ${parts.until ?? '--'}` : parts.since;
  return [where(parts), value, parts.limit, when, parts.url].map((p) => short(p, 1000));
}
