import { z } from './zod-locale';

/**
 * The "not a robot" proof of work (ALTCHA) of the contact form (A14) and the sign-up (issue 21 item 5): its texts and
 * the widget's answer. A module of its own, importing nothing else of the contract, so that any form can use it.
 */
export const HUMAN_CHECK_MESSAGES = {
  checkRequired: 'Confirme que você não é um robô antes de enviar.',
  checkInvalid: 'A verificação de segurança não confere. Verifique novamente e envie.',
  checkExpired: 'A verificação de segurança expirou. Verifique novamente e envie.',
  checkUsed: 'Esta verificação de segurança já foi usada. Verifique novamente e envie.',
} as const;

/** The widget's answer: a base64 JSON payload; bounded so that a huge one is refused before it is decoded. */
export const humanCheckToken = z
  .string({ error: (issue) => (issue.input === undefined ? HUMAN_CHECK_MESSAGES.checkRequired : HUMAN_CHECK_MESSAGES.checkInvalid) })
  .min(1, HUMAN_CHECK_MESSAGES.checkRequired)
  .max(4096, HUMAN_CHECK_MESSAGES.checkInvalid)
  .regex(/^[A-Za-z0-9+/=_-]+$/, HUMAN_CHECK_MESSAGES.checkInvalid);
