// Without zod: the signed-in shell's report exports use these on every screen's first paint (ADR 0048); reports.ts
// re-exports them with the schemas.

export const ReportStatus = { Queued: 1, Generated: 2, Failed: 3 } as const;
export type ReportStatusId = (typeof ReportStatus)[keyof typeof ReportStatus];

/** Status as the documents show it: id, name and badge colour come from the server (spec 001 §4). */
export const REPORT_STATUS_VIEW: Record<ReportStatusId, { id: ReportStatusId; name: string; color: string }> = {
  1: { id: 1, name: 'Em processamento', color: 'yellow' },
  2: { id: 2, name: 'Gerado', color: 'green' },
  3: { id: 3, name: 'Falhou', color: 'red' },
};

export const REPORT_MESSAGES = {
  loadFailed: 'Não foi possível carregar relatórios',
  downloaded: 'Relatório foi baixado com sucesso',
  generating: 'O relatório está sendo gerado...',
  loading: 'Aguarde.. Carregando relatório...',
  preparing: 'Preparando arquivos...',
  valid: 'Válido!',
  invalid: 'Inválido!',
  validText: 'O arquivo é válido, não foi modificado e foi gerado pela plataforma.',
  invalidText: 'O arquivo é inválido ou foi modificado.',
  notPdf: 'Envie um arquivo PDF.',
  notXlsx: 'Envie um arquivo Excel (.xlsx).',
  oneFile: 'Envie apenas um arquivo.',
  noFile: 'Nenhum arquivo enviado. Escolha um arquivo e tente novamente.',
  notGenerated: 'Este arquivo não foi gerado pela plataforma ou foi modificado.',
  stillGenerating: 'O relatório ainda está sendo gerado. Tente novamente em instantes.',
  failed: 'Não foi possível gerar o relatório.',
  excelRead: (n: number) => `${n} registro(s) foram lido(s) e encaminhado(s) para processamento com sucesso!`,
  excelErrors: (n: number) => `${n} erro(s) foram gerado(s) na leitura do arquivo!`,
} as const;
