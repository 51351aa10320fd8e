import { z } from './zod-locale';
import { IsoDate } from './common';
import { macAddress } from './beacons';
import { boundedInstant, cleanText, measureValue, parseBoundedInstant } from './values';
import { Report } from './reports';

/**
 * Thermal mapping studies (X12, issue 24 point 4, ADR 0083): the qualification of a cold room or a vehicle in the
 * manner of WHO TRS 961 Supplement 8. Several sensors placed in one space over one period, against one
 * temperature range; the study's signed PDF report is made by the report queue like every other report.
 */

/** A mapping needs several points; more than this is not one space any more, and its chart would be unreadable. */
export const MAPPING_STUDY_MIN_SENSORS = 2;
export const MAPPING_STUDY_MAX_SENSORS = 30;
/** A study covers at most this many days (a qualification runs days, not months; one report holds it). */
export const MAPPING_STUDY_MAX_DAYS = 31;

export const MAPPING_STUDY_MESSAGES = {
  notFound: 'Estudo de mapeamento não encontrado.',
  nameRequired: 'Informe o nome do estudo.',
  sensorsRequired: 'Escolha os sensores do estudo.',
  tooFewSensors: `Escolha ao menos ${MAPPING_STUDY_MIN_SENSORS} sensores: um mapeamento compara vários pontos.`,
  tooManySensors: `Escolha no máximo ${MAPPING_STUDY_MAX_SENSORS} sensores.`,
  repeatedSensor: 'Sensor repetido no estudo.',
  periodOrder: 'O início do estudo deve ser anterior ao fim.',
  periodTooLong: `O período do estudo deve ter no máximo ${MAPPING_STUDY_MAX_DAYS} dias.`,
  limitsOrder: 'A temperatura mínima deve ser menor que a máxima.',
  deviceNotFound: (mac: string) => `Dispositivo ${mac} não encontrado.`,
  mixedEnterprises: 'Os sensores de um estudo devem ser da mesma empresa.',
  locationNotFound: 'Local não encontrado.',
  locationOfAnotherEnterprise: 'O local escolhido não é da empresa dos sensores.',
} as const;

const M = MAPPING_STUDY_MESSAGES;

export const CreateMappingStudyBody = z
  .object({
    name: cleanText('O nome do estudo', { min: 1, max: 120, requiredMessage: M.nameRequired }),
    location_id: z.uuid(M.locationNotFound).nullish(),
    macs: z
      .array(macAddress, { error: (issue) => (issue.input === undefined || issue.input === null ? M.sensorsRequired : 'Os sensores devem ser uma lista de MACs.') })
      .min(MAPPING_STUDY_MIN_SENSORS, M.tooFewSensors)
      .max(MAPPING_STUDY_MAX_SENSORS, M.tooManySensors)
      .refine((macs) => new Set(macs).size === macs.length, M.repeatedSensor),
    from: boundedInstant('O início do estudo', { requireOffset: true }),
    to: boundedInstant('O fim do estudo', { requireOffset: true }),
    min: measureValue('temperature', 'Temperatura mínima'),
    max: measureValue('temperature', 'Temperatura máxima'),
  })
  .superRefine((body, ctx) => {
    const from = parseBoundedInstant(body.from, { requireOffset: true });
    const to = parseBoundedInstant(body.to, { requireOffset: true });
    if (from !== null && to !== null) {
      if (from >= to) ctx.addIssue({ code: 'custom', path: ['to'], message: M.periodOrder });
      else if (to - from > MAPPING_STUDY_MAX_DAYS * 86_400_000) ctx.addIssue({ code: 'custom', path: ['to'], message: M.periodTooLong });
    }
    if (body.min >= body.max) ctx.addIssue({ code: 'custom', path: ['max'], message: M.limitsOrder });
  });
export type CreateMappingStudyBody = z.input<typeof CreateMappingStudyBody>;

export const MappingStudy = z.object({
  _id: z.string(),
  name: z.string(),
  location: z.object({ _id: z.string(), name: z.string() }).nullable(),
  /** The sensors in the order they were chosen (the report numbers them so). */
  sensors: z.array(z.object({ mac: z.string(), name: z.string() })),
  from: IsoDate,
  to: IsoDate,
  min: z.number(),
  max: z.number(),
  created_at: IsoDate,
  user: z.object({ name: z.string() }).nullable(),
  /** The study's report as GET /api/reports/{id} answers it: its status, and its `download_url` once generated. */
  report: Report,
});
export type MappingStudy = z.infer<typeof MappingStudy>;
export const MappingStudyList = z.array(MappingStudy);
