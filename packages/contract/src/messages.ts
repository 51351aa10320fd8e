/**
 * Texts users read, in Portuguese (Brazil). Where the documents give a text, it is copied exactly.
 * Server error codes map to these messages; the web client shows them as they come.
 */
export const MSG = {
  sessionExpired: 'Sua sessão expirou, por favor efetue login novamente.',
  invalidCredentials: 'Usuário ou senha inválidos.',
  tooManyLoginAttempts: 'Muitas tentativas de login. Aguarde um minuto e tente novamente.',
  tooManyRequests: 'Muitas requisições. Aguarde um instante e tente novamente.',
  overloaded: 'O sistema está sobrecarregado no momento. Tente novamente em alguns segundos.',
  unauthenticated: 'Você precisa estar autenticado para acessar este recurso.',
  forbidden: 'Você não tem permissão para acessar este recurso.',
  notFound: 'Registro não encontrado.',
  routeNotFound: 'Rota não encontrada.',
  invalidUrl: 'O endereço da requisição é inválido.',
  invalidJson: 'O corpo da requisição não é um JSON válido.',
  bodyTooLarge: 'O corpo da requisição excede o tamanho máximo permitido.',
  unsupportedMediaType: 'Tipo de conteúdo não suportado.',
  invalidData: 'Dados inválidos.',
  valueNotStorable: 'Dados inválidos: um dos valores enviados não pode ser armazenado.',
  referenceNotFound: 'Dados inválidos: um dos registros indicados não existe.',
  internalError: 'Ocorreu um erro inesperado. Tente novamente em instantes.',
  // Passwords (spec 000 §5, 001 §5)
  passwordRequired: 'Você deve escolher uma senha',
  passwordRequiredReset: 'Você deve escolher uma senha para alterar a antiga',
  passwordRequiredAdmin: 'Você deve informar uma senha',
  passwordMin: 'A senha deve ter no mínimo 8 caracteres',
  passwordPattern: 'A senha deve conter ao menos um caractere maiúsculo e um caractere especial',
  passwordsMustMatch: 'As senhas devem ser iguais',
  emailTaken: 'Email já cadastrado no sistema.',
  loginError: 'Erro!',
  // Enterprises and their users (spec 001 §4, §8)
  enterpriseCreated: 'Empresa cadastrada com Sucesso',
  userDeactivated: 'Usuário Desativado com Sucesso!',
  userActivated: 'Usuário Ativado com Sucesso!',
  userActivationFailed: 'Não foi possível desativar o usuário.',
  enterpriseDeactivated: 'Empresa Desativada com Sucesso!',
  enterpriseActivated: 'Empresa Ativada com Sucesso!',
  passwordResetByAdmin: 'Senha resetada com sucesso!',
  successTitle: 'Sucesso!',
} as const;
