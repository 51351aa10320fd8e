import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { LoginBody, MSG, NOTIFICATION_MESSAGES } from '@sentinela/contract';
import { IconAlertCircle, IconBrandTelegram, IconCircleCheck } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { useParams, useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { useLinkTelegram } from '../api/link-telegram';

/**
 * /telegram/{chatId}/login (A12): "Vincular contas". Opened from the link the bot sends in answer to /start; signs
 * in with username and password and links that chat to the account. The link's one-time token (`?token=`) is what
 * proves the chat asked for it (ADR 21); without it the page says to ask the bot for a new link.
 */
export function TelegramLinkPage() {
  const { chatId = '' } = useParams();
  const [search] = useSearchParams();
  const linkToken = search.get('token') ?? '';
  const link = useLinkTelegram(chatId, linkToken);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(LoginBody), defaultValues: { username: '', password: '' } });
  const validLink = /^-?\d{1,20}$/.test(chatId) && /^[A-Za-z0-9_-]{20,100}$/.test(linkToken);

  return (
    <Paper withBorder shadow="sm" radius="md" p="xl" maw={420} mx="auto" mt="xl">
      <Stack>
        <Title order={2} ta="center">
          Vincular contas
        </Title>
        {link.isSuccess ? (
          <Alert color="teal" title="Sucesso!" icon={<IconCircleCheck />}>
            {link.data}
            <Text size="sm" mt="xs">
              Os alarmes dos seus dispositivos chegarão na conversa com o bot. Você pode voltar ao Telegram.
            </Text>
          </Alert>
        ) : !validLink ? (
          <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
            {NOTIFICATION_MESSAGES.telegramLinkInvalid}
          </Alert>
        ) : (
          <form onSubmit={handleSubmit((credentials) => link.mutate(credentials))} noValidate>
            <Stack>
              <Text size="sm" c="dimmed">
                <IconBrandTelegram size={16} style={{ verticalAlign: 'text-bottom' }} /> Entre com sua conta do Sentinela para receber
                os alarmes nesta conversa do Telegram.
              </Text>
              {link.isError && (
                <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
                  {errorMessage(link.error, MSG.internalError)}
                </Alert>
              )}
              <TextInput label="Usuário" autoComplete="username" autoFocus error={errors.username?.message} {...register('username')} />
              <PasswordInput label="Senha" autoComplete="current-password" error={errors.password?.message} {...register('password')} />
              <Button type="submit" loading={link.isPending} fullWidth>
                Vincular
              </Button>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
