import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Report } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { EMPTY_SIGNATURE, SignatureFields, type SignatureValue } from '../../../components/compliance/SignatureFields';
import { errorMessage } from '../../../lib/api-client';
import { useRequiredSession } from '../../../lib/session';
import { useApproveReport } from '../api/approve-report';
import { reportKindName, reportName } from '../view';

/**
 * "Aprovar relatório" (X11, ADR 0062): a generated report approved with an electronic signature — the meaning and the
 * signer's password typed again. The signature is bound to the file's SHA-256 and shown in the list and the validator.
 */
export function ApproveReportModal({ report, onClose }: { report: Report | null; onClose: () => void }) {
  return (
    <Modal opened={report !== null} onClose={onClose} title="Aprovar relatório" centered>
      {report && <ApproveForm key={report._id} report={report} onClose={onClose} />}
    </Modal>
  );
}

function ApproveForm({ report, onClose }: { report: Report; onClose: () => void }) {
  const { user } = useRequiredSession();
  const approve = useApproveReport();
  const [signature, setSignature] = useState<SignatureValue>(EMPTY_SIGNATURE);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    if (!signature.meaning) return setProblem('Escolha o significado da assinatura.');
    if (!signature.password) return setProblem('Informe sua senha para assinar.');
    setProblem(null);
    approve.mutate(
      { id: report._id, password: signature.password, meaning: signature.meaning },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', title: 'Sucesso!', message: 'Relatório aprovado e assinado.' });
          onClose();
        },
        // A wrong password, a lock after three, a report already approved: the server's words, the modal stays.
        onError: (error) => setProblem(errorMessage(error, 'Não foi possível aprovar o relatório.')),
      },
    );
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      noValidate
    >
      <Stack gap="sm">
        <div>
          <Text size="sm" fw={600}>
            {reportName(report)}
          </Text>
          <Text size="xs" c="dimmed">
            {reportKindName(report)}
          </Text>
        </div>
        <SignatureFields value={signature} onChange={setSignature} signerName={user.name} />
        {problem && (
          <Alert color="red" icon={<IconAlertCircle />} data-testid="approve-error">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={approve.isPending}>
            Cancelar
          </Button>
          <Button type="submit" loading={approve.isPending}>
            Aprovar e assinar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
