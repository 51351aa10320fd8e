import { INGEST_MAX_BATCH } from '@sentinela/contract';

/** What gateways read when a whole request or message is refused (per-reading reasons: reading-validator). */
export const INGEST_MESSAGES = {
  missingKey: 'Chave de gateway ausente: envie o cabeçalho Authorization: ApiKey <chave>.',
  invalidKey: 'Chave de gateway inválida ou revogada.',
  badBody: 'O corpo deve ser um objeto JSON com "readings": uma lista de leituras.',
  tooMany: `O lote excede o máximo de ${INGEST_MAX_BATCH.toLocaleString('pt-BR')} leituras por requisição.`,
  ruuviBadBody: 'O corpo deve ser o JSON do Ruuvi Gateway: {"data": {"gw_mac": ..., "tags": {"MAC": {"data": ...}}}}.',
  ruuviTooMany: `O envio excede o máximo de ${INGEST_MAX_BATCH.toLocaleString('pt-BR')} tags por requisição.`,
  tooHeavy: 'O corpo é pesado demais para ser lido: envie lotes menores.',
  quotaExceeded: 'Este gateway enviou mais leituras (ou bytes) por segundo do que sua cota permite. Aguarde o tempo indicado em Retry-After e reenvie o lote.',
  ruuviMissingKey: 'Chave de gateway ausente: configure no Ruuvi Gateway a autenticação "Bearer" com a chave, ou "Basic" com a chave como senha.',
} as const;
