import { ReportStatus, type ApproveReportBody, type Report } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { conflict, notFound } from '../../lib/errors';
import type { AuthContext } from '../../plugins/auth';
import type { SignatureService } from '../signatures/service';
import type { ReportService } from './service';
import { findReportInScope } from './repository';

export const APPROVAL_MESSAGES = {
  notFound: 'Relatório não encontrado.',
  notGenerated: 'O relatório ainda não foi gerado: só um relatório gerado pode ser aprovado.',
  alreadyApproved: 'Este relatório já foi aprovado.',
} as const;

/**
 * A report's approval (X11, ADR 0062): always an electronic signature, since an approval is what an inspector asks to
 * see signed. The signature is bound to the report's file by its SHA-256 (the signed PDF itself cannot change): the
 * report list, the validator and the approval certificate show it.
 */
export class ReportApprovalService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly signatures: SignatureService,
    /** The report record as every call answers it (its links and file name: ADR 0070). */
    private readonly reports: Pick<ReportService, 'get'>,
  ) {}

  async approve(auth: AuthContext, id: string, body: ApproveReportBody): Promise<Report> {
    const row = await findReportInScope(this.db, auth.scope, id);
    if (!row) throw notFound(APPROVAL_MESSAGES.notFound);
    if (row.status !== ReportStatus.Generated || !row.sha256) throw conflict(APPROVAL_MESSAGES.notGenerated);
    if (row.approval_id) throw conflict(APPROVAL_MESSAGES.alreadyApproved);
    const signer = await this.signatures.verifySigner(auth.userId, body.password, body.meaning);
    const at = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const signature = await this.signatures.sign(trx, signer, {
        type: 'report',
        id,
        enterpriseId: row.enterprise_id,
        at,
        content: { kind: row.kind, type: row.type, sha256: row.sha256, file_size: row.file_size, filters: row.filters, created_at: row.created_at, device_id: row.device_id, travel_id: row.travel_id },
      });
      const result = await trx
        .updateTable('reports')
        .set({ approval_signature_id: signature._id })
        .where('id', '=', id)
        .where('approval_signature_id', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw conflict(APPROVAL_MESSAGES.alreadyApproved);
    });
    return this.reports.get(auth.scope, id);
  }
}
