import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Paper, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { CONTACT_MESSAGES, ContactForm } from '@sentinela/contract';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { PhoneInput } from '../../../components/form/PhoneInput';
import { ApiError } from '../../../lib/api-client';
import { CONTACT_CHALLENGE_URL, useSendContact } from '../api/contact';
import { HumanCheckWidget } from '../../../components/HumanCheckWidget';

/** Why a send failed, beyond the documents' message: what the visitor can fix (a field, the check, the limit). */
function failureDetail(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 400 || error.status === 429) return error.message;
  return null;
}

/**
 * Contato (A14): name, e-mail, phone (99) 99999-9999 and message, all required; Enviar stays off until the widget
 * has solved the server's challenge. The message is stored and e-mailed to the team.
 */
export function ContactSection() {
  const send = useSendContact();
  // A new widget (a new challenge) after each send: the answer is single use.
  const [round, setRound] = useState(0);
  const [token, setToken] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ContactForm>({ resolver: zodResolver(ContactForm), defaultValues: { name: '', email: '', phone: '', message: '' } });

  const onSubmit = handleSubmit(
    (form) => {
      if (!token) return;
      send.mutate(
        { ...form, altcha: token },
        {
          onSuccess: () => reset(),
          // Sent or not, the answer was used (or refused): the next try needs a new one.
          onSettled: () => {
            setToken(null);
            setRound((n) => n + 1);
          },
        },
      );
    },
    // A new attempt with mistakes: the previous send's message no longer applies.
    () => send.reset(),
  );

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={720} mx="auto">
      <form onSubmit={onSubmit} noValidate aria-label="Formulário de contato">
        <Stack>
          <Text c="dimmed" ta="center">
            Quer conhecer o Sentinela ou montar um plano sob medida? Escreva para nós.
          </Text>
          {send.isSuccess && (
            <Alert color="green" title="Sucesso!" icon={<IconCircleCheck />}>
              {CONTACT_MESSAGES.sent}
            </Alert>
          )}
          {send.isError && (
            <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
              {CONTACT_MESSAGES.failed}
              {failureDetail(send.error) && (
                <Text size="sm" mt={4}>
                  {failureDetail(send.error)}
                </Text>
              )}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Nome" withAsterisk autoComplete="name" error={errors.name?.message} {...register('name')} />
            <TextInput label="Email" type="email" withAsterisk autoComplete="email" error={errors.email?.message} {...register('email')} />
          </SimpleGrid>
          <PhoneInput label="Telefone" withAsterisk error={errors.phone?.message} {...register('phone')} />
          <Textarea label="Mensagem" withAsterisk rows={5} error={errors.message?.message} {...register('message')} />
          <HumanCheckWidget key={round} challengeUrl={CONTACT_CHALLENGE_URL} onToken={setToken} />
          {!token && (
            <Text size="xs" c="dimmed">
              {CONTACT_MESSAGES.checkRequired}
            </Text>
          )}
          <Button type="submit" disabled={!token} loading={send.isPending} style={{ alignSelf: 'flex-end' }}>
            Enviar
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
