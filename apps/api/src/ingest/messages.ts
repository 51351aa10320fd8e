import { INGEST_MAX_BATCH } from '@sentinela/contract';

/** What gateways read when a whole request or message is refused (per-reading reasons: reading-validator). */
export const INGEST_MESSAGES = {
  missingKey: 'Chave de gateway ausente: envie o cabeçalho Authorization: ApiKey <chave>.',
  invalidKey: 'Chave de gateway inválida ou revogada.',
  badBody: 'O corpo deve ser um objeto JSON com "readings": uma lista de leituras.',
  tooMany: `O lote excede o máximo de ${INGEST_MAX_BATCH.toLocaleString('pt-BR')} leituras por requisição.`,
} as const;
