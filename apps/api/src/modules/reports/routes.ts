import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApproveReportBody,
  ExcelGenerationResult,
  HistoryFilter,
  IdParam,
  LocalizatorParam,
  MacParam,
  Report,
  ReportListQuery,
  ReportListResponse,
  ReportFileStatus,
  ReportStatus,
  ReportValidation,
  z,
  type ReportFileType,
} from '@sentinela/contract';
import { AppError } from '../../lib/errors';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';
import { bodyReadByHandler, fileResponse, multipartFileBody } from '../../openapi/route-schemas';
import { REPORT_SERVER_MESSAGES as M } from './messages';
import type { FileAccess, ReportActor, ReportFile } from './service';
import { isNavigation, sendMessagePage, sendWaitingPage } from './file-pages';
import { CONTENT_TYPES } from './view';
import { readSingleFile, uploadLimit } from '../../lib/single-file-upload';
import { attachment } from '../../lib/download';

/** Largest PDF the validator takes (R6); generated reports are far smaller. */
export const VALIDATE_MAX_BYTES = 20 * 1024 * 1024;

/** A report's file: the PDF or the spreadsheet it was made as. */
const REPORT_FILE = fileResponse('The report file, as it was generated.', CONTENT_TYPES.pdf, CONTENT_TYPES.xlsx);
/** What a browser navigating to a file still being generated gets (ADR 0070). */
const WAITING_PAGE = fileResponse('For a browser navigating there (Accept: text/html) while the file is being generated: a page that waits and then downloads it. API clients get 409.', 'text/html');

type FileRoute = 'report' | 'travel-report';
const FILE_ROUTES: Array<{ prefix: string; route: FileRoute }> = [
  { prefix: '/api/report/files', route: 'report' },
  { prefix: '/api/travel-report/files', route: 'travel-report' },
];

const FORMATS: Array<{ path: 'pdf' | 'excel'; type: ReportFileType }> = [
  { path: 'pdf', type: 'pdf' },
  { path: 'excel', type: 'xlsx' },
];

function actor(request: FastifyRequest): ReportActor {
  const auth = requireAuth(request);
  return { userId: auth.userId, scope: auth.scope };
}

function sendFile(reply: FastifyReply, file: ReportFile) {
  return reply
    .header('content-type', file.contentType)
    .header('content-length', file.size)
    .header('content-disposition', attachment(file.filename))
    .header('cache-control', 'private, no-store')
    // The link's capability must not travel on to anything the file links to.
    .header('referrer-policy', 'no-referrer')
    .send(file.stream);
}

/** Reports (spec 001 §7): the export calls, the list, the downloads, the validator and the Excel generator. */
export const reportRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const reports = services.reports;
  const generate = { permission: 'reports:generate' as const };
  const read = { permission: 'reports:read' as const };

  // Multipart only here (this plugin is encapsulated): no other route accepts form uploads, and each of them
  // takes the per-user upload limit (ADR 13).
  await app.register(multipart, { limits: { fileSize: VALIDATE_MAX_BYTES, files: 5 } });
  const uploads = uploadLimit(services.rateLimits, services.config.reportUploadMaxPerMinute);
  const validations = services.rateLimits.limit({ name: 'report-validations', points: services.config.reportValidateMaxPerMinute, windowSeconds: 60 });

  // --- Export calls: answer the queued report at once; its _id downloads once generated. ---
  for (const { path, type } of FORMATS) {
    app.get(
      `/api/beacon-device/history/mac/:mac/${path}`,
      { schema: { params: MacParam, querystring: HistoryFilter, response: { 200: Report } }, config: generate },
      async (request) => reports.exportDeviceHistory(actor(request), request.params.mac, request.query, type),
    );
    app.get(
      `/api/travels/:id/devices/:mac/history/${path}`,
      { schema: { params: z.object({ ...IdParam.shape, ...MacParam.shape }), response: { 200: Report } }, config: generate },
      async (request) => reports.exportTravelDeviceHistory(actor(request), request.params.id, request.params.mac, type),
    );
  }
  // A tracking code's holder (signed in) asks for one device's report of the travel the code shows (ADR 72).
  for (const { path, type } of FORMATS) {
    app.get(
      `/api/travels/localizator/:cod/devices/:mac/history/${path}`,
      { schema: { params: z.object({ ...LocalizatorParam.shape, ...MacParam.shape }), response: { 200: Report } }, config: generate },
      async (request) => reports.exportTravelDeviceHistoryByCode(actor(request), request.params.cod, request.params.mac, type),
    );
  }
  app.get(
    '/api/travels/:id/html',
    { schema: { params: IdParam, response: { 200: Report } }, config: generate },
    async (request) => reports.exportTravel(actor(request), request.params.id),
  );

  // --- The list and one report (the client polls it while status is 1). ---
  app.get(
    '/api/reports',
    { schema: { querystring: ReportListQuery, response: { 200: ReportListResponse } }, config: read },
    async (request) => reports.list(requireAuth(request).scope, request.query),
  );
  app.get(
    '/api/reports/:id',
    { schema: { params: IdParam, response: { 200: Report } }, config: read },
    async (request) => reports.get(requireAuth(request).scope, request.params.id),
  );
  // An approval is an electronic signature (X11, ADR 0062): the password again and the signature's meaning.
  app.post(
    '/api/reports/:id/approve',
    { schema: { params: IdParam, body: ApproveReportBody, response: { 200: Report } }, config: generate },
    async (request) => services.reportApprovals.approve(requireAuth(request), request.params.id, request.body),
  );

  // --- Downloads (ADR 0070): with the session like every other call, by the link of `download_url`, or — what the
  // documents' client does right after asking — by the bare id for a while. A browser that navigates there while
  // the file is being generated gets a page that waits and then downloads; a link that no longer works, a page
  // saying so. Everyone else gets the JSON answers. ---
  const files = async (request: FastifyRequest, reply: FastifyReply, access: FileAccess, id: string, route: FileRoute) => {
    const navigation = isNavigation(request);
    try {
      const row = await reports.fileReport(access, id, route);
      if (navigation && row.status === ReportStatus.Queued) return sendWaitingPage(reply, reports.subjectOf(row));
      return sendFile(reply, await reports.file(row));
    } catch (error) {
      if (navigation && error instanceof AppError) return sendMessagePage(reply, error.statusCode, error.message);
      throw error;
    }
  };
  const anyone = { permission: 'public-or-signed-in' as const };
  const LinkParams = z.object({
    ...IdParam.shape,
    link: z.string().max(80),
    // The file's name, for whoever reads the address (the documents' client names zip entries by it); not checked.
    name: z.string().max(300),
  });
  for (const { prefix, route } of FILE_ROUTES) {
    app.get(
      `${prefix}/:id`,
      { schema: { params: IdParam, response: { 200: REPORT_FILE, 202: WAITING_PAGE } }, config: anyone },
      async (request, reply) => files(request, reply, { scope: request.auth?.scope ?? null }, request.params.id, route),
    );
    app.get(
      `${prefix}/:id/status`,
      { schema: { params: IdParam, response: { 200: ReportFileStatus } }, config: anyone },
      async (request) => reports.fileStatus(await reports.fileReport({ scope: request.auth?.scope ?? null }, request.params.id, route)),
    );
    app.get(
      `${prefix}/:id/:link/:name`,
      { schema: { params: LinkParams, response: { 200: REPORT_FILE, 202: WAITING_PAGE } }, config: anyone },
      async (request, reply) =>
        files(request, reply, { scope: request.auth?.scope ?? null, capability: request.params.link }, request.params.id, route),
    );
  }

  // --- Validator (R6): public, one PDF, per-address rate limit; a signed-in caller also counts as a user. ---
  app.post(
    '/api/report/validate',
    {
      schema: { consumes: ['multipart/form-data'], body: multipartFileBody(), response: { 200: ReportValidation } },
      validatorCompiler: bodyReadByHandler,
      config: { permission: 'public-or-signed-in', limits: [uploads, { limit: validations, message: M.tooManyValidations }] },
    },
    async (request) => reports.validate((await readSingleFile(request, VALIDATE_MAX_BYTES)).data),
  );

  // --- Reports from an Excel sheet (R5). ---
  app.get('/api/reports/excel-template', { schema: { response: { 200: fileResponse('The spreadsheet template.', CONTENT_TYPES.xlsx) } }, config: generate }, async (request, reply) =>
    reply
      .header('content-type', CONTENT_TYPES.xlsx)
      .header('content-disposition', attachment('modelo-relatorios.xlsx'))
      .send(await reports.excelTemplate(requireAuth(request).scope)),
  );
  app.post(
    '/api/reports/generate-reports-by-excel',
    {
      schema: { consumes: ['multipart/form-data'], body: multipartFileBody(), response: { 200: ExcelGenerationResult } },
      validatorCompiler: bodyReadByHandler,
      config: { ...generate, limits: [uploads] },
    },
    async (request) => reports.generateFromExcel(actor(request), (await readSingleFile(request, services.config.reportExcelMaxBytes)).data),
  );
};
