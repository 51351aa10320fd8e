import type { AppConfig } from '../../../config/config';
import type { OutgoingClient } from '../../../lib/outgoing/outgoing-client';
import { TwilioSms } from './sms-twilio';
import { WhatsAppCloud } from './whatsapp-cloud';

/** The providers of the channels that reach a mobile number (ADR 23). */
export interface PhoneSenders {
  sms: TwilioSms;
  whatsapp: WhatsAppCloud;
}

export function createPhoneSenders(config: AppConfig, outgoing: OutgoingClient): PhoneSenders {
  return { sms: new TwilioSms(config, outgoing), whatsapp: new WhatsAppCloud(config, outgoing) };
}
