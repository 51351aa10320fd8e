/**
 * The audit trail as a PDF (issue 22 point 4, ADR 0063): who exported which filtered trail, the chains' verification
 * at that moment, then every entry — sequence, time, action, record, actor, each changed value before and after, the
 * reason, the client and the hashes. Unsigned: the caller signs the bytes (signing/sign-pdf.ts) like a report.
 * Pure: data in, bytes out.
 */
import { AUDIT_ACTION_LABELS, AUDIT_ACTOR_TYPE_LABELS, AUDIT_ENTITY_LABELS, auditFieldLabel, formatAuditValue, type AuditEntry } from '@sentinela/contract';
import { zonedClock } from '../format';
import {
  COLOR,
  CONTENT_WIDTH,
  drawFields,
  drawNote,
  drawSectionTitle,
  ensureSpace,
  FONT,
  horizontalRule,
  PAGE,
  paragraphAt,
  renderDocument,
  textAt,
  textRightAt,
  wrappedHeight,
  type Doc,
  type Field,
} from './layout';

export interface AuditTrailDocumentInput {
  /** The export's id (printed in the footer, and in its trail entry). */
  documentId: string;
  generatedAt: Date;
  timeZone: string;
  issuer: { name: string; username: string };
  /** Whose trail: an enterprise's name, "Plataforma" or "Todas as empresas". */
  scope: string;
  /** The filters, in pt-BR ("Registro: …", "De: …"), or empty. */
  filters: readonly string[];
  /** The chains' verification at export time, in pt-BR. */
  verification: string;
  verified: boolean;
  entries: readonly AuditEntry[];
}

export const AUDIT_PDF_TEXTS = {
  kind: 'Trilha de auditoria',
  title: 'Trilha de auditoria',
  none: 'Nenhum registro com estes filtros.',
} as const;

const INDENT = 12;

export async function renderAuditTrailPdf(input: AuditTrailDocumentInput): Promise<Buffer> {
  const clock = zonedClock(input.timeZone);
  const local = (iso: string) => clock.dateTime(new Date(iso));
  const fields: Field[] = [
    { label: 'Exportado em', value: `${clock.dateTime(input.generatedAt)} (${input.timeZone})` },
    { label: 'Exportado por', value: `${input.issuer.name} (${input.issuer.username})` },
    { label: 'Filtros', value: input.filters.length ? input.filters.join(' · ') : 'Nenhum (toda a trilha)', wide: true },
    { label: 'Registros', value: input.entries.length.toLocaleString('pt-BR') },
    { label: 'Verificação', value: input.verification, wide: true },
  ];
  return renderDocument(
    {
      meta: {
        title: AUDIT_PDF_TEXTS.title,
        subject: `Trilha de auditoria — ${input.scope}`,
        // A trail whose chains failed verification says so in the file's properties too.
        keywords: `Sentinela, trilha de auditoria, GxP, 21 CFR Part 11${input.verified ? '' : ', verificação com falha'}`,
        createdAt: input.generatedAt,
      },
      heading: { title: AUDIT_PDF_TEXTS.title, subtitle: input.scope, reportId: input.documentId, kind: AUDIT_PDF_TEXTS.kind },
      furniture: {
        runningTitle: `Trilha de auditoria — ${input.scope}`,
        generated: `Exportado em ${clock.dateTime(input.generatedAt)} (${input.timeZone}) por ${input.issuer.name} (${input.issuer.username})`,
        reportId: input.documentId,
        idLabel: 'Exportação',
      },
    },
    (doc) => {
      drawFields(doc, fields);
      drawNote(doc, 'Cada registro: hash = SHA-256(hash anterior || texto canônico), por empresa. O arquivo é assinado digitalmente.');
      drawSectionTitle(doc, 'Registros (do mais recente ao mais antigo)');
      if (input.entries.length === 0) drawNote(doc, AUDIT_PDF_TEXTS.none);
      for (const entry of input.entries) drawEntry(doc, entry, local);
    },
  );
}

/** The changed values as "Campo: antes → depois" (a creation lists what was set, a removal what there was). */
function changeLines(entry: AuditEntry, local: (iso: string) => string): string[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.map((key) => {
    const value = (v: unknown) => formatAuditValue(key, v, local);
    if (entry.before && entry.after) return `${auditFieldLabel(key)}: ${value(before[key])} → ${value(after[key])}`;
    return `${auditFieldLabel(key)}: ${value(entry.after ? after[key] : before[key])}`;
  });
}

function drawEntry(doc: Doc, entry: AuditEntry, local: (iso: string) => string): void {
  const actor = entry.actor.username ? `${entry.actor.name ?? ''} (${entry.actor.username})` : (entry.actor.name ?? '—');
  const lines = [
    `Registro: ${entry.entity_id ?? '—'}${entry.enterprise ? ` · Empresa: ${entry.enterprise.name}` : ''} · Cadeia ${entry.chain}`,
    `Autor: ${actor} · ${AUDIT_ACTOR_TYPE_LABELS[entry.actor.type] ?? entry.actor.type}`,
    ...changeLines(entry, local),
    ...(entry.reason ? [`Motivo: ${entry.reason}`] : []),
    `Origem: ${[entry.client.address, entry.client.client, entry.client.clientVersion, entry.client.clientOs, entry.client.userAgent].filter(Boolean).join(' · ') || '—'}`,
  ];
  doc.font(FONT.regular).fontSize(8);
  const width = CONTENT_WIDTH - INDENT;
  const heights = lines.map((line) => wrappedHeight(doc, line, width));
  const hashHeight = 20;
  // The heading and the first lines stay together; a long entry may go on to the next page.
  ensureSpace(doc, 16 + Math.min(heights.reduce((a, b) => a + b, 0), 120) + hashHeight);
  const top = doc.y;
  doc.font(FONT.bold).fontSize(9).fillColor(COLOR.text);
  textAt(doc, `#${entry.seq} · ${local(entry.at)} · ${AUDIT_ACTION_LABELS[entry.action] ?? entry.action} · ${AUDIT_ENTITY_LABELS[entry.entity] ?? entry.entity}`, PAGE.left, top, CONTENT_WIDTH - 150);
  doc.font(FONT.regular).fontSize(8).fillColor(COLOR.muted);
  textRightAt(doc, entry.at, PAGE.right, top + 1, 150);
  doc.y = top + 13;
  lines.forEach((line, index) => {
    ensureSpace(doc, heights[index]!);
    // pdfkit moves the cursor past what it wrote: the next line starts where this one's measured height ends.
    const y = doc.y;
    doc.font(line.startsWith('Motivo:') ? FONT.bold : FONT.regular).fontSize(8).fillColor(COLOR.text);
    paragraphAt(doc, line, PAGE.left + INDENT, y, width);
    doc.y = y + heights[index]!;
  });
  ensureSpace(doc, hashHeight);
  const hashTop = doc.y;
  doc.font(FONT.regular).fontSize(6.5).fillColor(COLOR.muted);
  textAt(doc, `hash ${entry.hash}`, PAGE.left + INDENT, hashTop + 1, width);
  textAt(doc, `anterior ${entry.prev_hash}`, PAGE.left + INDENT, hashTop + 9, width);
  doc.y = hashTop + hashHeight;
  horizontalRule(doc, doc.y - 2, COLOR.hairline, 0.4);
  doc.y += 4;
  doc.fillColor(COLOR.text);
}
