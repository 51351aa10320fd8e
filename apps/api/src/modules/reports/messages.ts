import { REPORT_MESSAGES } from '@sentinela/contract';
import { UPLOAD_MESSAGES } from '../../lib/single-file-upload';

const thousands = (n: number) => n.toLocaleString('pt-BR');
/** A size as people read it: "50 MB", "64 KB". */
const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${thousands(Math.round(bytes / (1024 * 1024)))} MB` : `${thousands(Math.max(1, Math.round(bytes / 1024)))} KB`;

/** The pt-BR texts of reports that only the server writes (those the client shows too are in the contract). */
export const REPORT_SERVER_MESSAGES = {
  notFound: 'Relatório não encontrado.',
  deviceNotFound: 'Dispositivo não encontrado.',
  fileMissing: 'O arquivo deste relatório não está mais disponível. Gere o relatório novamente.',
  /** A download_url past its time (ADR 0070). */
  linkExpired: 'Este link de download expirou. Entre no Sentinela e baixe o relatório na tela Relatórios.',
  /** The bare id without a session, past the time right after the report was asked for (ADR 0070). */
  idLinkExpired: 'Este link de download não vale mais sem login. Entre no Sentinela e baixe o relatório na tela Relatórios.',
  tooManyReadings: (max: number) => `O período escolhido tem mais de ${thousands(max)} leituras. Escolha um período menor.`,
  travelNotStarted: 'A viagem ainda não foi iniciada: ainda não há leituras para o relatório.',
  /** A failed report's error: what went wrong, never a stack. */
  failed: (reason: string) => `${REPORT_MESSAGES.failed.replace(/\.$/, '')}: ${reason}`,
  deviceGone: 'o dispositivo do relatório não existe mais.',
  travelGone: 'a viagem do relatório não existe mais.',
  studyGone: 'o estudo de mapeamento do relatório não existe mais.',
  readingsGrew: (max: number) => `o período passou a ter mais de ${thousands(max)} leituras; escolha um período menor.`,
  unexpected: 'ocorreu um erro inesperado ao montar o arquivo. Tente gerar o relatório novamente.',
  tooManyValidations: 'Muitas validações seguidas. Aguarde um minuto e tente novamente.',
  ...UPLOAD_MESSAGES,
  excelTooManyRows: (max: number) => `A planilha tem mais de ${max} linhas de relatórios. Divida-a em arquivos menores.`,
  excelNoRows: 'A planilha não tem nenhuma linha preenchida abaixo do cabeçalho.',
  excelInflatedTooLarge: (maxBytes: number) =>
    `A planilha descompactada passa de ${size(maxBytes)}. Envie só a aba de relatórios, com no máximo 500 linhas.`,
  excelTooHeavy: 'A planilha exige memória demais para ser lida. Envie só a aba de relatórios, com no máximo 500 linhas.',
  excelTooManyParts: (max: number) => `O arquivo tem mais de ${max} partes internas e não parece uma planilha de relatórios. Salve-a de novo como .xlsx.`,
  excelEncrypted: 'A planilha está criptografada ou protegida por senha. Salve-a sem senha e envie de novo.',
  excelOddParts: 'O arquivo .xlsx tem partes num formato não aceito. Abra-o no Excel, salve-o de novo como .xlsx e envie de novo.',
  userQueueFull: (queued: number, max: number) =>
    `Você já tem ${thousands(queued)} relatórios na fila, e o limite é de ${thousands(max)}. Aguarde a geração dos que estão na fila e tente novamente.`,
  enterpriseQueueFull: (queued: number, max: number) =>
    `A empresa já tem ${thousands(queued)} relatórios na fila, e o limite é de ${thousands(max)}. Aguarde a geração dos que estão na fila e tente novamente.`,
} as const;

/** One message per bad row of an uploaded Excel file, "Linha N: …" with N the row number Excel shows. */
export const EXCEL_ROW_MESSAGES = {
  macMissing: (row: number) => `Linha ${row}: informe o MAC do dispositivo.`,
  macInvalid: (row: number, mac: string) => `Linha ${row}: MAC ${mac} inválido (use o formato AA:BB:CC:DD:EE:FF).`,
  macNotFound: (row: number, mac: string) => `Linha ${row}: MAC ${mac} não encontrado.`,
  startMissing: (row: number) => `Linha ${row}: informe a data inicial.`,
  endMissing: (row: number) => `Linha ${row}: informe a data final.`,
  startInvalid: (row: number, text: string) => `Linha ${row}: data inicial "${text}" inválida (use DD/MM/AAAA HH:mm).`,
  endInvalid: (row: number, text: string) => `Linha ${row}: data final "${text}" inválida (use DD/MM/AAAA HH:mm).`,
  endBeforeStart: (row: number) => `Linha ${row}: a data final deve ser posterior à data inicial.`,
  periodTooLong: (row: number, days: number) => `Linha ${row}: o período deve ter no máximo ${days} dias.`,
  typeMissing: (row: number) => `Linha ${row}: informe o tipo (PDF ou EXCEL).`,
  typeInvalid: (row: number, text: string) => `Linha ${row}: tipo "${text}" inválido (use PDF ou EXCEL).`,
  tooManyReadings: (row: number, max: number) => `Linha ${row}: o período tem mais de ${thousands(max)} leituras; escolha um período menor.`,
} as const;
