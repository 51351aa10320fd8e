/** The answer of Sair, loaded when the user signs out: the signed-in shell's first load carries no zod (ADR 0048). */
export { OkResponse } from '@sentinela/contract';
