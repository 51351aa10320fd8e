/**
 * Pending e-mail changes (issue 21 point 5, ADR 82). A new e-mail chosen in Editar usuário or in the Perfil is a
 * confirmation link sent to that address; the account keeps its current e-mail until the link is opened. The answer
 * to whoever asked is the same whether the address is free or belongs to an account they cannot see.
 */
export const EMAIL_CHANGE_MESSAGES = {
  /** Shown beside the form while a change waits: "Aguardando confirmação de novo e-mail: x". */
  pending: 'Aguardando confirmação de novo e-mail',
  pendingHelp: 'O e-mail atual continua valendo até que o link enviado ao novo endereço seja aberto.',
  cancel: 'Cancelar alteração',
  cancelled: 'Alteração de e-mail cancelada.',
  noneToCancel: 'Não há alteração de e-mail aguardando confirmação.',
  requestedByAdministrator: 'Enviamos um link de confirmação para o novo e-mail. O e-mail do usuário muda quando ele abrir o link.',
  confirmed: 'Novo e-mail confirmado! A conta passa a usar este endereço.',
  unavailable: 'Este link não pode ser usado: o endereço de e-mail já pertence a outra conta do Sentinela. Nada foi alterado.',
} as const;

/** "Aguardando confirmação de novo e-mail: x" */
export const pendingEmailText = (email: string): string => `${EMAIL_CHANGE_MESSAGES.pending}: ${email}`;
