import { pluralize } from '@sentinela/contract';
import { composeMail } from '../mail/compose';
import type { OutgoingMail } from '../mail/transport';

/** The account messages users receive, in pt-BR. */

export function confirmationMail(to: { name: string; email: string }, url: string, hours: number): OutgoingMail {
  return composeMail({
    to: to.email,
    subject: 'Confirme seu e-mail no Sentinela',
    greeting: `Olá, ${to.name}!`,
    paragraphs: ['Recebemos o seu cadastro no Sentinela. Para ativar sua conta, confirme que este e-mail é seu.'],
    action: { label: 'Confirmar e-mail', url },
    footnotes: [`Este link vale por ${pluralize(hours, 'hora', 'horas')} e só pode ser usado uma vez.`, 'Se você não se cadastrou no Sentinela, ignore esta mensagem.'],
  });
}

export function recoveryCodeMail(to: { name: string; email: string }, code: string, minutes: number): OutgoingMail {
  return composeMail({
    to: to.email,
    subject: 'Código de recuperação de senha do Sentinela',
    greeting: `Olá, ${to.name}!`,
    paragraphs: ['Use o código abaixo na tela Alterar senha para escolher uma nova senha:'],
    code,
    footnotes: [`O código vale por ${pluralize(minutes, 'minuto', 'minutos')} e só pode ser usado uma vez.`, 'Se você não pediu para recuperar a senha, ignore esta mensagem: sua senha continua a mesma.'],
  });
}

export function welcomeMail(to: { name: string; email: string }, by: { enterprise: string }, code: string, url: string, hours: number): OutgoingMail {
  return composeMail({
    to: to.email,
    subject: 'Sua conta no Sentinela foi criada',
    greeting: `Olá, ${to.name}!`,
    paragraphs: [
      `Um administrador da empresa ${by.enterprise} criou uma conta para você no Sentinela.`,
      'Para entrar, escolha a sua senha: abra a tela Alterar senha e informe o código abaixo.',
    ],
    code,
    action: { label: 'Escolher minha senha', url },
    footnotes: [`O código vale por ${pluralize(hours, 'hora', 'horas')} e só pode ser usado uma vez. Depois disso, use "Esqueci minha senha" na tela de login.`],
  });
}
