import { AUDIT_ACTION_LABELS, AUDIT_ACTOR_TYPE_LABELS, AUDIT_ENTITY_LABELS, type AuditEntry } from '@sentinela/contract';

/** The columns of the trail's CSV export (ADR 0063), in order. */
const HEADER = [
  'cadeia', 'sequencia', 'data_hora_utc', 'data_hora_local', 'empresa', 'tipo_autor', 'autor', 'usuario_autor', 'acao', 'registro',
  'id_registro', 'antes', 'depois', 'motivo', 'endereco_cliente', 'cliente', 'versao_cliente', 'sistema_cliente', 'user_agent',
  'hash_anterior', 'hash',
] as const;

/**
 * A cell as Excel pt-BR reads it: `;`-separated, quoted when it holds a separator, a quote or a line break, and a
 * value that a spreadsheet would run as a formula (`= + - @`, tab, carriage return first) prefixed with `'`: the trail
 * holds what people typed (names, reasons), and opening an export must never execute it.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Before/after as compact JSON (keys sorted as stored): what an auditor can diff or load again. */
const json = (value: Record<string, unknown> | null) => (value ? JSON.stringify(value) : '');

/**
 * The CSV of a filtered trail: a UTF-8 BOM (Excel then reads the accents), CRLF lines, a header, then one row per
 * entry with every field of the entry (the values before and after as JSON, the hashes an auditor recomputes).
 */
export function auditTrailCsv(entries: readonly AuditEntry[], localTime: (iso: string) => string): Buffer {
  const lines = [HEADER.join(';')];
  for (const e of entries) {
    lines.push(
      [
        e.chain, e.seq, e.at, localTime(e.at), e.enterprise?.name ?? '', AUDIT_ACTOR_TYPE_LABELS[e.actor.type] ?? e.actor.type, e.actor.name,
        e.actor.username, AUDIT_ACTION_LABELS[e.action] ?? e.action, AUDIT_ENTITY_LABELS[e.entity] ?? e.entity, e.entity_id, json(e.before),
        json(e.after), e.reason, e.client.address, e.client.client, e.client.clientVersion, e.client.clientOs, e.client.userAgent, e.prev_hash,
        e.hash,
      ]
        .map(csvCell)
        .join(';'),
    );
  }
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8')]);
}
