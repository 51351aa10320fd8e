import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Center, Group, Loader, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { EMAIL_CHANGE_MESSAGES, MSG, UpdateUserBody, USER_MESSAGES, type UserDetail } from '@sentinela/contract';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconHistory } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useChangeReason } from '../../../components/compliance/use-change-reason';
import { PendingEmailAlert } from '../../../components/form/PendingEmailAlert';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { paths, withQuery } from '../../../lib/paths';
import { useCancelPendingEmail, useUpdateUser, useUser } from '../api/edit-user';

/** /edit-user?id={id} "Editar Usuário" (M5): an administrator edits a user's name, username and email. */
export function EditUserPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const user = useUser(id);

  return (
    <Stack maw={560}>
      <Group justify="space-between" gap="xs">
        <Title order={2}>Editar Usuário</Title>
        {/* X11: what was changed in this user's record and what they did, in the audit trail. */}
        {user.data && (
          <Button component={Link} variant="default" size="xs" leftSection={<IconHistory size={16} />} to={withQuery(paths.auditTrail, { entity_id: user.data._id })}>
            Trilha de auditoria
          </Button>
        )}
      </Group>
      {!id ? (
        <Alert color="yellow" icon={<IconAlertCircle />}>
          Escolha o usuário a editar em Usuários.
        </Alert>
      ) : user.isError ? (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(user.error, 'Não foi possível carregar o usuário.')}
        </Alert>
      ) : user.isPending ? (
        <Center py="xl">
          <Loader size="sm" aria-label="Carregando..." />
        </Center>
      ) : (
        <EditUserForm key={user.data._id} user={user.data} />
      )}
    </Stack>
  );
}

type Field = keyof UpdateUserBody;
const FIELDS: readonly string[] = ['name', 'username', 'email'] satisfies Field[];

/** The server's refusal, field by field: a taken username or email (409), or the fields of a 400. */
function fieldErrorsOf(error: Error): [Field, string][] {
  if (!(error instanceof ApiError)) return [];
  if (error.message === USER_MESSAGES.usernameTaken) return [['username', error.message]];
  if (error.message === MSG.emailTaken) return [['email', error.message]];
  return error.issues.filter((issue) => FIELDS.includes(issue.path)).map((issue) => [issue.path as Field, issue.message]);
}

function EditUserForm({ user }: { user: UserDetail }) {
  const navigate = useNavigate();
  const update = useUpdateUser(user._id);
  const cancelPending = useCancelPendingEmail(user._id);
  // Saved, and whether a new e-mail now waits for the user's link (ADR 82): the answer is the same for any address.
  const [saved, setSaved] = useState<{ emailRequested: boolean } | null>(null);
  // A user's name and username are GxP records (ADR 0061): their change goes with its reason.
  const reason = useChangeReason();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<UpdateUserBody>({
    resolver: zodResolver(UpdateUserBody),
    defaultValues: { name: user.name, username: user.username, email: user.email },
  });

  const onSubmit = handleSubmit((body) => {
    const why = reason.take();
    if (!why) return;
    update.mutate({ ...body, ...why }, {
      onSuccess: (answer) => setSaved({ emailRequested: body.email.toLowerCase() !== answer.email.toLowerCase() }),
      onError: (error) => {
        // A taken username or email, or a field the server refused, is shown under its field; anything else alerts.
        const fields = fieldErrorsOf(error);
        for (const [field, message] of fields) setError(field, { message });
        if (fields.length === 0) notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, 'Não foi possível salvar o usuário.') });
      },
    });
  });
  const back = () => navigate(user.enterprise ? withQuery(paths.enterpriseUsers, { id: user.enterprise._id }) : paths.selectUser);

  return (
    <Paper withBorder p="md" radius="md">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {user.pending_email && (
            <PendingEmailAlert email={user.pending_email} onCancel={() => cancelPending.mutate()} cancelling={cancelPending.isPending} error={cancelPending.error} />
          )}
          <TextInput label="Nome" required error={errors.name?.message} {...register('name')} />
          <TextInput label="Usuário" required autoComplete="off" error={errors.username?.message} {...register('username')} />
          <TextInput label="Email" type="email" required error={errors.email?.message} {...register('email')} />
          {reason.field}
          <Group justify="flex-end">
            <Button variant="default" onClick={back} disabled={update.isPending}>
              Voltar
            </Button>
            <Button type="submit" loading={update.isPending}>
              Salvar
            </Button>
          </Group>
        </Stack>
      </form>
      <Modal opened={!!saved} onClose={back} title={MSG.successTitle} centered>
        <Stack>
          <Text>{USER_MESSAGES.updated}</Text>
          {saved?.emailRequested && <Text size="sm">{EMAIL_CHANGE_MESSAGES.requestedByAdministrator}</Text>}
          <Group justify="flex-end">
            <Button onClick={back}>OK</Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
