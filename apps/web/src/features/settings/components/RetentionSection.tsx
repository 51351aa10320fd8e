import { Alert, NumberInput, Stack, Switch, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG, RETENTION_MAX_DAYS, type RetentionSettings } from '@sentinela/contract';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { ReasonField, reasonBody, reasonProblem } from '../../../components/compliance/ReasonField';
import { SettingsSaveButton, SettingsSection, SettingsValues } from '../../../components/SettingsSection';
import { errorMessage } from '../../../lib/api-client';
import { useCompliance } from '../../../lib/compliance';
import { useRetention, useSaveRetention } from '../api/retention';

/**
 * "Retenção de dados" (issue 25 point 5, ADR 0081), for the enterprise's administrators: how long readings and report
 * files are kept before the daily job removes them (what it removes goes into the audit trail), and a legal hold that
 * keeps everything while an inspection or a lawsuit lasts.
 */
export function RetentionSection() {
  const current = useRetention();
  return (
    <SettingsSection
      title="Retenção de dados"
      testId="retention-section"
      description="Por quanto tempo as leituras e os arquivos de relatório da empresa são guardados. Uma vez por dia, o que passou do prazo é removido e a remoção fica registrada na trilha de auditoria. A RDC 430/2020 pede os registros por pelo menos 5 anos."
    >
      <SettingsValues query={current}>{(values) => <RetentionForm key={JSON.stringify(values)} values={values} />}</SettingsValues>
    </SettingsSection>
  );
}

/** A number field's value as the form keeps it: an emptied field is not a number. */
const asNumber = (value: number | string) => (typeof value === 'number' ? value : Number.NaN);

function dayProblem(value: number, min: number): string | null {
  if (!Number.isInteger(value) || value < min || value > RETENTION_MAX_DAYS) return `Informe um número inteiro de dias entre ${min} e ${RETENTION_MAX_DAYS}.`;
  return null;
}

function RetentionForm({ values }: { values: RetentionSettings }) {
  const save = useSaveRetention();
  const compliance = useCompliance();
  const [readingsDays, setReadingsDays] = useState<number>(values.readings_days);
  const [reportDays, setReportDays] = useState<number>(values.report_files_days);
  const [hold, setHold] = useState(values.legal_hold);
  const [holdReason, setHoldReason] = useState(values.legal_hold_reason ?? '');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const found = {
      readings: dayProblem(readingsDays, values.minimum_readings_days),
      reports: dayProblem(reportDays, 30),
      holdReason: hold && !holdReason.trim() ? 'Informe o motivo da retenção legal.' : null,
      reason: reasonProblem(reason, compliance.gxp),
    };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    save.mutate(
      { readings_days: readingsDays, report_files_days: reportDays, legal_hold: hold, legal_hold_reason: hold ? holdReason.trim() : null, ...reasonBody(reason) },
      {
        onSuccess: () => notifications.show({ color: 'teal', title: 'Sucesso!', message: 'Retenção de dados salva.' }),
        onError: (error) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, MSG.internalError) }),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Retenção de dados">
      <Stack>
        <NumberInput
          label="Guardar as leituras por (dias)"
          description={`Mínimo de ${values.minimum_readings_days} dias${values.minimum_readings_days > 30 ? ' no modo GxP' : ''}; 1827 dias são 5 anos.`}
          min={values.minimum_readings_days}
          max={RETENTION_MAX_DAYS}
          allowDecimal={false}
          allowNegative={false}
          inputMode="numeric"
          value={readingsDays}
          onChange={(value) => setReadingsDays(asNumber(value))}
          error={errors.readings}
        />
        <NumberInput
          label="Guardar os arquivos de relatório por (dias)"
          description="Relatórios aprovados com assinatura eletrônica ficam pelo prazo das leituras, se for maior."
          min={30}
          max={RETENTION_MAX_DAYS}
          allowDecimal={false}
          allowNegative={false}
          inputMode="numeric"
          value={reportDays}
          onChange={(value) => setReportDays(asNumber(value))}
          error={errors.reports}
        />
        <Switch
          label="Retenção legal"
          description="Enquanto ativa, nada da empresa é removido (por exemplo, durante uma inspeção ou um processo)."
          checked={hold}
          onChange={(event) => setHold(event.currentTarget.checked)}
        />
        {hold && (
          <Textarea
            label="Motivo da retenção legal"
            withAsterisk
            autosize
            minRows={2}
            maxLength={500}
            value={holdReason}
            onChange={(event) => setHoldReason(event.currentTarget.value)}
            error={errors.holdReason}
          />
        )}
        {values.legal_hold && (
          <Alert color="orange" variant="light" icon={<IconLock />}>
            Retenção legal ativa: nenhuma leitura ou arquivo de relatório da empresa é removido.
          </Alert>
        )}
        {compliance.mayNeedReason && <ReasonField value={reason} onChange={setReason} required={compliance.gxp} error={errors.reason ?? null} />}
        <SettingsSaveButton loading={save.isPending} />
      </Stack>
    </form>
  );
}
