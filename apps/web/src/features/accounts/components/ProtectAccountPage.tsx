import { Alert, Button, List, Stack, Text } from '@mantine/core';
import { MSG } from '@sentinela/contract';
import { IconAlertCircle, IconCircleCheck, IconShieldLock } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { paths, withQuery } from '../../../lib/paths';
import { clearSession } from '../../../lib/session';
import { useProtectAccount } from '../api/accounts';
import { AuthCard } from './AuthCard';

/**
 * /protect-account/{token} (ADR 58): the "Não fui eu" link of a notice that the account's e-mail, username or password
 * changed. Opening the link changes nothing (mail scanners open links too); the button secures the account.
 */
export function ProtectAccountPage() {
  const { token = '' } = useParams();
  const protect = useProtectAccount();

  if (protect.isSuccess) {
    const { message, email } = protect.data;
    return (
      <AuthCard title="Conta protegida" width={520}>
        <Alert color="green" title="Sucesso!" icon={<IconCircleCheck />}>
          {message}
        </Alert>
        {email ? (
          <Button component={Link} to={withQuery(paths.resetPassword, { email })}>
            Escolher nova senha
          </Button>
        ) : (
          <Button component={Link} to={paths.forgotPassword} variant="default">
            Esqueci minha senha
          </Button>
        )}
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Proteger minha conta" width={520}>
      <Text>Você recebeu um aviso de que o e-mail, o usuário ou a senha da sua conta no Sentinela foram alterados e não reconhece a alteração?</Text>
      <Text>Ao proteger a conta:</Text>
      <List spacing={4} size="sm">
        <List.Item>o e-mail e o usuário voltam a ser os de antes da alteração;</List.Item>
        <List.Item>todas as sessões abertas são encerradas, em qualquer aparelho;</List.Item>
        <List.Item>a senha atual deixa de valer;</List.Item>
        <List.Item>enviamos ao e-mail da conta um código para você escolher uma nova senha.</List.Item>
      </List>
      {protect.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(protect.error, MSG.internalError)}
        </Alert>
      )}
      <Stack gap="xs">
        <Button
          color="red"
          leftSection={<IconShieldLock size={18} />}
          loading={protect.isPending}
          // Every session of the account ends, this tab's too if it is the same account.
          onClick={() => protect.mutate(token, { onSuccess: () => clearSession() })}
        >
          Proteger minha conta
        </Button>
        <Button component={Link} to={paths.login} variant="subtle">
          Fui eu: voltar ao login
        </Button>
      </Stack>
    </AuthCard>
  );
}
