import type { AppConfig } from '../../../config/config';
import { TwilioSms } from './sms-twilio';
import { WhatsAppCloud } from './whatsapp-cloud';

/** The providers of the channels that reach a mobile number (ADR 23). */
export interface PhoneSenders {
  sms: TwilioSms;
  whatsapp: WhatsAppCloud;
}

export function createPhoneSenders(config: AppConfig): PhoneSenders {
  return { sms: new TwilioSms(config), whatsapp: new WhatsAppCloud(config) };
}
