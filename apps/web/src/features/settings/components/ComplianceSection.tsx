import { Alert, Button, Group, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ComplianceSettings, MSG } from '@sentinela/contract';
import { IconShieldCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ReasonField, reasonBody, reasonProblem } from '../../../components/compliance/ReasonField';
import { SettingsSection } from '../../../components/SettingsSection';
import { apiRequest, errorMessage } from '../../../lib/api-client';
import { useCompliance } from '../../../lib/compliance';
import { paths } from '../../../lib/paths';

/**
 * "Conformidade (GxP)" (X11, ADR 0061): the enterprise's administrators turn GxP mode on (reasons for change, signed
 * acknowledgements and approvals) or off (with a reason, kept in the audit trail).
 */
export function ComplianceSection() {
  const compliance = useCompliance();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: { gxp: boolean; reason?: string }) => apiRequest('/api/enterprise/compliance', { method: 'PUT', body, schema: ComplianceSettings }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['compliance'] }),
  });
  const turnOff = compliance.gxp;
  const onToggle = () => {
    const problem = turnOff ? reasonProblem(reason, true) : null;
    setReasonError(problem);
    if (problem) return;
    save.mutate(
      { gxp: !compliance.gxp, ...(turnOff ? reasonBody(reason) : {}) },
      {
        onSuccess: (saved) => {
          setReason('');
          notifications.show({ color: 'teal', title: 'Sucesso!', message: saved.gxp ? 'Modo GxP ativado.' : 'Modo GxP desativado.' });
        },
        onError: (error) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, MSG.internalError) }),
      },
    );
  };
  return (
    <SettingsSection
      title="Conformidade (GxP)"
      testId="compliance-section"
      description={
        <>
          Para quem responde à ANVISA (RDC 430/2020), FDA 21 CFR Part 11 ou EU GMP Anexo 11: com o modo GxP, alterações de limites,
          configurações, vínculos, dispositivos de viagem e cadastros de usuários exigem um motivo, e reconhecer alarmes ou aprovar relatórios
          passa a ser uma assinatura eletrônica (senha e significado). Tudo fica na{' '}
          <Text component={Link} to={paths.auditTrail} size="sm" c="blue" inherit>
            trilha de auditoria
          </Text>
          .
        </>
      }
    >
      <Switch label="Modo GxP" checked={compliance.gxp} disabled={compliance.loading || save.isPending} onChange={() => (turnOff ? undefined : onToggle())} readOnly={turnOff} />
      {compliance.gxp && (
        <Alert color="teal" variant="light" icon={<IconShieldCheck />}>
          Ativo: motivos e assinaturas eletrônicas são exigidos.
        </Alert>
      )}
      {turnOff && (
        <Stack gap="xs">
          <ReasonField value={reason} onChange={setReason} required error={reasonError} />
          <Group justify="flex-end">
            <Button color="red" variant="light" loading={save.isPending} onClick={onToggle}>
              Desativar o modo GxP
            </Button>
          </Group>
        </Stack>
      )}
    </SettingsSection>
  );
}
