import { pluralize } from '@sentinela/contract';
import { composeMail, mailText, ours, quoted } from '../mail/compose';
import type { OutgoingMail } from '../mail/transport';

/**
 * The account messages users receive, in pt-BR. Nobody is addressed by a name they (or an administrator) typed:
 * names only appear quoted, as facts about the account (ADR 59).
 */

const GREETING = mailText`Olá!`;

export function confirmationMail(to: { email: string }, url: string, hours: number): OutgoingMail {
  return composeMail({
    to: to.email,
    subject: mailText`Confirme seu e-mail no Sentinela`,
    greeting: GREETING,
    paragraphs: [mailText`Recebemos o seu cadastro no Sentinela. Para ativar sua conta, confirme que este e-mail é seu.`],
    action: { label: mailText`Confirmar e-mail`, url },
    footnotes: [mailText`Este link vale por ${ours(pluralize(hours, 'hora', 'horas'))} e só pode ser usado uma vez.`, mailText`Se você não se cadastrou no Sentinela, ignore esta mensagem.`],
  });
}

export function recoveryCodeMail(to: { email: string }, code: string, minutes: number, url: string): OutgoingMail {
  return composeMail({
    to: to.email,
    subject: mailText`Código de recuperação de senha do Sentinela`,
    greeting: GREETING,
    paragraphs: [mailText`Use o código abaixo na tela Alterar senha para escolher uma nova senha:`],
    code,
    action: { label: mailText`Alterar senha`, url },
    footnotes: [
      mailText`O código vale por ${ours(pluralize(minutes, 'minuto', 'minutos'))} e só pode ser usado uma vez.`,
      mailText`Se você não pediu para recuperar a senha, ignore esta mensagem: sua senha continua a mesma.`,
    ],
  });
}

export function welcomeMail(to: { email: string; username: string }, by: { enterprise: string }, code: string, url: string, hours: number): OutgoingMail {
  return composeMail({
    to: to.email,
    subject: mailText`Sua conta no Sentinela foi criada`,
    greeting: GREETING,
    paragraphs: [
      mailText`Um administrador da empresa ${quoted(by.enterprise)} criou uma conta para você no Sentinela, com o usuário ${quoted(to.username)}.`,
      mailText`Para entrar, escolha a sua senha: abra a tela Criar senha pelo botão abaixo e informe o código:`,
    ],
    code,
    action: { label: mailText`Criar minha senha`, url },
    footnotes: [mailText`O código vale por ${ours(pluralize(hours, 'hora', 'horas'))} e só pode ser usado uma vez. Depois disso, use "Esqueci minha senha" na tela de login.`],
  });
}

export function welcomeWithPasswordMail(
  to: { email: string; username: string },
  by: { enterprise: string },
  links: { confirmUrl: string; loginUrl: string },
  hours: number,
): OutgoingMail {
  return composeMail({
    to: to.email,
    subject: mailText`Sua conta no Sentinela foi criada`,
    greeting: GREETING,
    paragraphs: [
      mailText`Um administrador da empresa ${quoted(by.enterprise)} criou uma conta para você no Sentinela, com o usuário ${quoted(to.username)} e uma senha que ele lhe informará.`,
      mailText`Confirme que este e-mail é seu pelo botão abaixo. Depois de entrar (${ours(links.loginUrl)}), troque a senha em Perfil → Alterar senha: só você deve conhecê-la.`,
    ],
    action: { label: mailText`Confirmar e-mail`, url: links.confirmUrl },
    footnotes: [mailText`O link vale por ${ours(pluralize(hours, 'hora', 'horas'))} e só pode ser usado uma vez.`],
  });
}

/** Told to the address an account had, when its e-mail or username changes (ADR 58). */
export function identityChangedMail(
  to: string,
  change: { newEmail: string | null; newUsername: string | null; byAdministrator: boolean },
  report: { url: string; days: number } | null,
): OutgoingMail {
  const what: string[] = [];
  const paragraphs = [];
  if (change.newEmail) paragraphs.push(mailText`O e-mail da sua conta no Sentinela foi alterado para ${quoted(change.newEmail)}. Este endereço não recebe mais as mensagens da conta, nem a recuperação de senha.`);
  if (change.newUsername) paragraphs.push(mailText`O usuário com que você entra no Sentinela passou a ser ${quoted(change.newUsername)}.`);
  if (change.newEmail) what.push('e-mail');
  if (change.newUsername) what.push('usuário');
  paragraphs.push(change.byAdministrator ? mailText`A alteração foi feita por um administrador da sua empresa.` : mailText`A alteração foi feita no seu Perfil, com a sua senha.`);
  if (report) {
    paragraphs.push(
      mailText`Se não foi você, proteja sua conta pelo botão abaixo: o ${ours(what.join(' e '))} volta a ser o de antes, todas as sessões são encerradas, a senha atual deixa de valer e enviamos a este endereço um código para você escolher outra.`,
    );
  }
  return composeMail({
    to,
    subject: change.newEmail ? mailText`O e-mail da sua conta no Sentinela foi alterado` : mailText`O usuário da sua conta no Sentinela foi alterado`,
    greeting: GREETING,
    paragraphs,
    ...(report ? { action: { label: mailText`Não fui eu: proteger minha conta`, url: report.url } } : {}),
    footnotes: report
      ? [mailText`O botão vale por ${ours(pluralize(report.days, 'dia', 'dias'))}. Se foi você, ignore esta mensagem.`]
      : [mailText`Se não reconhece a alteração, fale com o administrador da sua empresa.`],
  });
}

/** How a password came to change, for the notice that says so. */
export type PasswordChangeWay = 'profile' | 'recovery' | 'administrator';

/** Told to the account's address whenever its password changes (ADR 58). */
export function passwordChangedMail(to: string, way: PasswordChangeWay, report: { url: string; days: number } | null, loginUrl: string): OutgoingMail {
  const how = {
    profile: mailText`A senha da sua conta no Sentinela foi alterada no seu Perfil, com a senha anterior.`,
    recovery: mailText`A senha da sua conta no Sentinela foi alterada com um código de recuperação enviado a este e-mail.`,
    administrator: mailText`A senha da sua conta no Sentinela foi redefinida por um administrador da sua empresa.`,
  }[way];
  return composeMail({
    to,
    subject: mailText`A senha da sua conta no Sentinela foi alterada`,
    greeting: GREETING,
    paragraphs: [
      how,
      mailText`Por segurança, as outras sessões abertas da conta foram encerradas.`,
      report
        ? mailText`Se não foi você, proteja sua conta pelo botão abaixo: todas as sessões são encerradas, a nova senha deixa de valer e enviamos a este endereço um código para você escolher outra.`
        : way === 'administrator'
          ? mailText`Se você não pediu a troca, fale com o administrador da sua empresa.`
          : mailText`Se não foi você, use "Esqueci minha senha" na tela de login (${ours(loginUrl)}) para escolher outra senha agora.`,
    ],
    ...(report ? { action: { label: mailText`Não fui eu: proteger minha conta`, url: report.url } } : {}),
    ...(report ? { footnotes: [mailText`O botão vale por ${ours(pluralize(report.days, 'dia', 'dias'))}. Se foi você, ignore esta mensagem.`] } : {}),
  });
}

/** After "Não fui eu": the code that lets the owner choose a new password (the recovery code, with its own words). */
export function accountSecuredMail(to: string, code: string, minutes: number, url: string): OutgoingMail {
  return composeMail({
    to,
    subject: mailText`Sua conta no Sentinela foi protegida`,
    greeting: GREETING,
    paragraphs: [
      mailText`Como você pediu, desfizemos a alteração, encerramos todas as sessões da conta e a senha anterior deixou de valer.`,
      mailText`Escolha uma nova senha na tela Alterar senha com o código abaixo:`,
    ],
    code,
    action: { label: mailText`Escolher nova senha`, url },
    footnotes: [mailText`O código vale por ${ours(pluralize(minutes, 'minuto', 'minutos'))}. Se ele expirar, use "Esqueci minha senha" na tela de login.`],
  });
}

/** A new e-mail for an existing account (ADR 82): the link that makes it the account's address. */
export function emailChangeMail(to: string, url: string, hours: number, byAdministrator: boolean): OutgoingMail {
  return composeMail({
    to,
    subject: mailText`Confirme o novo e-mail da sua conta no Sentinela`,
    greeting: GREETING,
    paragraphs: [
      byAdministrator
        ? mailText`Um administrador da sua empresa informou este endereço como o novo e-mail da sua conta no Sentinela.`
        : mailText`Você informou este endereço como o novo e-mail da sua conta no Sentinela.`,
      mailText`A conta só passa a usar este endereço quando você confirmar pelo botão abaixo.`,
    ],
    action: { label: mailText`Confirmar novo e-mail`, url },
    footnotes: [mailText`Este link vale por ${ours(pluralize(hours, 'hora', 'horas'))} e só pode ser usado uma vez.`, mailText`Se você não reconhece este pedido, ignore esta mensagem: nada muda.`],
  });
}

/**
 * Told to an address that already has an account, when someone asked for it as the new e-mail of another (ADR 82).
 * No link, nothing to do: the asker got the same answer as for a free address and nothing changes.
 */
export function addressInUseMail(to: string): OutgoingMail {
  return composeMail({
    to,
    subject: mailText`Tentativa de usar este e-mail no Sentinela`,
    greeting: GREETING,
    paragraphs: [
      mailText`Alguém tentou usar este endereço de e-mail em outra conta do Sentinela. Como ele já pertence a uma conta, nada foi alterado.`,
      mailText`Nenhuma ação é necessária: a sua conta continua como estava.`,
    ],
  });
}
