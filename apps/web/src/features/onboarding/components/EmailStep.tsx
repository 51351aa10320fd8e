import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { MSG } from '@sentinela/contract';
import { IconAlertCircle, IconCircleCheck, IconMail } from '@tabler/icons-react';
import { errorMessage } from '../../../lib/api-client';
import { useEmailState, useResendConfirmation } from '../api/email-state';

/** Step 1: is the e-mail confirmed? If not, "Reenviar e-mail" sends a new link (the earlier ones stop working). */
export function EmailStep({ onNext }: { onNext: () => void }) {
  const profile = useEmailState();
  const resend = useResendConfirmation();

  if (profile.isPending) return <Loader aria-label="Carregando" />;
  if (profile.isError) {
    return (
      <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
        {errorMessage(profile.error, MSG.internalError)}
      </Alert>
    );
  }
  const { email, verified } = profile.data;
  return (
    <Stack mt="md">
      {verified ? (
        <Alert color="green" title="E-mail confirmado" icon={<IconCircleCheck />}>
          O e-mail {email} está confirmado.
        </Alert>
      ) : (
        <Alert color="yellow" title="Confirme o seu e-mail" icon={<IconMail />}>
          Enviamos um link de confirmação para {email}. Abra a mensagem e clique em Confirmar e-mail. Não chegou? Confira a
          caixa de spam ou peça outro.
        </Alert>
      )}
      {resend.isSuccess && <Text c="teal">{resend.data.message}</Text>}
      {resend.isError && <Text c="red">{errorMessage(resend.error, MSG.internalError)}</Text>}
      <Group justify="space-between">
        {verified ? (
          <span />
        ) : (
          <Button variant="default" onClick={() => resend.mutate()} loading={resend.isPending}>
            Reenviar e-mail
          </Button>
        )}
        <Button onClick={onNext}>Próximo</Button>
      </Group>
    </Stack>
  );
}
