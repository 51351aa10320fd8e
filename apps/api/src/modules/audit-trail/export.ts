import { createHash, randomUUID } from 'node:crypto';
import { zipSync } from 'fflate';
import { AUDIT_ENTITY_LABELS, AUDIT_EXPORT_MAX_ENTRIES, AUDIT_TRAIL_MESSAGES, type AuditTrailExportQuery } from '@sentinela/contract';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { Semaphore } from '../../lib/semaphore';
import type { AuthContext } from '../../plugins/auth';
import { zonedClock } from '../../reports/format';
import { renderAuditTrailPdf } from '../../reports/pdf/audit-trail-document';
import { loadOrCreateSigningIdentity, type SigningIdentity } from '../../reports/signing/certificate';
import { signDetachedWithTimestamp, signPdfWithTimestamp, type TimestampOutcome } from '../../reports/signing/sign-pdf';
import type { Timestamper } from '../../reports/signing/tsa-client';
import type { SigningSource } from '../reports/render/render-task';
import { auditTrailCsv } from './export-csv';
import { recordTrailExport } from './events';
import { listAuditEntries, PLATFORM_CHAIN } from './repository';
import { toAuditEntry, type AuditTrailService } from './service';

/** A few exports drawn at once keep the event loop answering others (a 5 000-entry PDF is seconds of CPU). */
const EXPORTS_AT_ONCE = 1;

export type AuditExportFormat = 'pdf' | 'csv';

export interface AuditExportFile {
  data: Buffer;
  filename: string;
  contentType: string;
}

const CSV_NAME = 'trilha-de-auditoria.csv';

/** What the README says of the signature's timestamp: its authority and time, or why there is none. */
function timestampLines(timestamp: TimestampOutcome, dateTime: (d: Date) => string): string[] {
  if (timestamp.status === 'off') return [];
  if (timestamp.status === 'missing') {
    return ['', 'A autoridade de carimbo de tempo não respondeu: esta assinatura não tem carimbo de tempo. Exporte de novo para obter um.'];
  }
  return [
    '',
    `A assinatura traz um carimbo de tempo RFC 3161 (CAdES-T) de ${timestamp.info.authority}, de ${dateTime(timestamp.info.time)}:`,
    'prova, por uma autoridade independente da plataforma, que a assinatura (e o CSV que ela cobre) já existia nesse instante.',
    'Validadores de assinaturas CAdES o conferem; openssl cms -cmsout -print -inform DER mostra o token (id-smime-aa-timeStampToken).',
  ];
}

const README = (signedAt: string, timestamp: string[]) =>
  [
    'Trilha de auditoria exportada pela plataforma Sentinela.',
    '',
    `${CSV_NAME}: os registros (UTF-8, separados por ponto e vírgula).`,
    `${CSV_NAME}.p7s: a assinatura digital destacada (CMS/PKCS#7, DER) do arquivo CSV, feita em ${signedAt}.`,
    ...timestamp,
    '',
    'Para conferir que o CSV não foi alterado desde a exportação:',
    `  openssl cms -verify -binary -inform DER -in ${CSV_NAME}.p7s -content ${CSV_NAME} -noverify -out /dev/null`,
    '("Verification successful": o arquivo é o assinado. Sem -noverify, informe o certificado da plataforma com -CAfile.)',
    '',
    'Cada registro traz hash e hash_anterior: hash = SHA-256(hash_anterior || texto canônico), por empresa.',
    'A exportação também fica registrada na própria trilha, com o SHA-256 do arquivo entregue.',
    '',
  ].join('\r\n');

/**
 * Signed exports of a filtered audit trail (issue 22 point 4, ADR 0063): the same filters and scope as the screen, a
 * PDF signed like the reports, or a ZIP with the CSV and its detached CMS signature; each export is an entry of the
 * trail with the SHA-256 of the file handed out.
 */
export class AuditTrailExportService {
  private identity: Promise<SigningIdentity> | undefined;
  private readonly gate = new Semaphore(EXPORTS_AT_ONCE);

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly signing: SigningSource,
    private readonly trail: AuditTrailService,
    /** REPORT_TSA_URL's (ADR 79): an export is made at each request and handed out at once, so one the TSA missed is not retried. */
    private readonly timestamper?: Timestamper,
  ) {}

  async export(auth: AuthContext, query: AuditTrailExportQuery, format: AuditExportFormat): Promise<AuditExportFile> {
    const filter = await this.trail.filterFor(auth.scope, query);
    const { rows, total } = await listAuditEntries(this.db, filter, { offset: 0, limit: AUDIT_EXPORT_MAX_ENTRIES });
    if (total > AUDIT_EXPORT_MAX_ENTRIES) throw new AppError('UNPROCESSABLE', AUDIT_TRAIL_MESSAGES.exportTooLarge);
    const entries = rows.map(toAuditEntry);
    const verification = await this.trail.verify(auth.scope, query.enterprise_id);
    const issuer = await this.db.selectFrom('users').select(['name', 'username']).where('id', '=', auth.userId).executeTakeFirstOrThrow();
    const documentId = randomUUID();
    const generatedAt = this.clock.now();
    const clock = zonedClock(this.config.reportTimeZone);
    const stamp = clock.dateTime(generatedAt);
    const day = stamp.slice(6, 10) + stamp.slice(3, 5) + stamp.slice(0, 2);

    const file = await this.gate.run(async (): Promise<AuditExportFile> => {
      const identity = await this.signingIdentity();
      if (format === 'pdf') {
        const pdf = await renderAuditTrailPdf({
          documentId,
          generatedAt,
          timeZone: this.config.reportTimeZone,
          issuer,
          scope: await this.scopeName(filter.chains),
          filters: describeFilters(query, (iso) => clock.dateTime(new Date(iso))),
          verification: verification.ok
            ? `Íntegra: ${verification.entries.toLocaleString('pt-BR')} registros recalculados, nenhuma divergência.`
            : `FALHA: a cadeia ${verification.chain ?? ''} não confere a partir da sequência ${verification.first_bad_seq}.`,
          verified: verification.ok,
          entries,
        });
        const { data } = await signPdfWithTimestamp(
          pdf,
          identity,
          { reason: 'Trilha de auditoria exportada pela plataforma Sentinela', location: 'Brasil', name: 'Sentinela', signingTime: generatedAt },
          this.timestamper,
        );
        return { data, filename: `trilha-de-auditoria-${day}.pdf`, contentType: 'application/pdf' };
      }
      const csv = auditTrailCsv(entries, (iso) => clock.dateTime(new Date(iso)));
      const { cms, timestamp } = await signDetachedWithTimestamp(csv, identity, generatedAt, this.timestamper);
      const signedAt = `${stamp} (${this.config.reportTimeZone})`;
      const readme = README(signedAt, timestampLines(timestamp, (d) => `${clock.dateTime(d)} (${this.config.reportTimeZone})`));
      const zip = zipSync(
        { [CSV_NAME]: csv, [`${CSV_NAME}.p7s`]: cms, 'LEIA-ME.txt': Buffer.from(readme, 'utf8') },
        { level: 6, mtime: generatedAt },
      );
      return { data: Buffer.from(zip), filename: `trilha-de-auditoria-${day}.zip`, contentType: 'application/zip' };
    });

    // The export is itself in the trail: which file (its SHA-256) was handed to whom, with which filters.
    const single = filter.chains?.length === 1 ? filter.chains[0]! : null;
    await recordTrailExport(this.db, {
      enterpriseId: single && single !== PLATFORM_CHAIN ? single : null,
      documentId,
      format,
      entries: entries.length,
      filters: Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)),
      sha256: createHash('sha256').update(file.data).digest('hex'),
      size: file.data.length,
      verified: verification.ok,
    });
    return file;
  }

  private async scopeName(chains: readonly string[] | undefined): Promise<string> {
    if (!chains) return 'Todas as empresas';
    if (chains[0] === PLATFORM_CHAIN) return 'Plataforma (registros sem empresa)';
    const row = await this.db.selectFrom('enterprises').select('name').where('id', '=', chains[0]!).executeTakeFirst();
    return row?.name ?? chains[0]!;
  }

  private signingIdentity(): Promise<SigningIdentity> {
    // Made at most once per process, like the invoices' (the reports' own load creates the certificate when missing).
    this.identity ??= loadOrCreateSigningIdentity(this.signing).catch((error: unknown) => {
      this.identity = undefined;
      throw error;
    });
    return this.identity;
  }
}

/** The filters in pt-BR, as printed on the PDF. */
function describeFilters(query: AuditTrailExportQuery, local: (iso: string) => string): string[] {
  const parts: string[] = [];
  if (query.entity) parts.push(`Tipo: ${AUDIT_ENTITY_LABELS[query.entity] ?? query.entity}`);
  if (query.entity_id) parts.push(`Registro: ${query.entity_id}`);
  if (query.actor) parts.push(`Autor: ${query.actor}`);
  if (query.from) parts.push(`De: ${local(query.from)}`);
  if (query.to) parts.push(`Até: ${local(query.to)}`);
  return parts;
}
