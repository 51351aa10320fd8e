import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Center, Group, Loader, Paper, PasswordInput, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { MSG, PROFILE_MESSAGES, ProfileEditForm, type ProfileBody, type ProfileResponse } from '@sentinela/contract';
import { IconAlertCircle, IconCircleCheck, IconKey, IconMailExclamation } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useChangeReason } from '../../../components/compliance/use-change-reason';
import { PendingEmailAlert } from '../../../components/form/PendingEmailAlert';
import { PhoneInput } from '../../../components/form/PhoneInput';
import { errorMessage } from '../../../lib/api-client';
import { isEmailAvailable } from '../../../lib/email-availability';
import { useCancelPendingEmail, useProfile, useResendConfirmation, useSaveProfile } from '../api/profile';
import { ChangePasswordModal } from './ChangePasswordModal';

/** /profile (A7): Editar Perfil and the change-password modal. One layout for desktop and small screens. */
export function ProfilePage() {
  const profile = useProfile();
  if (profile.isPending) {
    return (
      <Center mt="xl">
        <Loader aria-label="Carregando" />
      </Center>
    );
  }
  if (profile.isError) {
    return (
      <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
        {errorMessage(profile.error, MSG.internalError)}
      </Alert>
    );
  }
  return <ProfileForm profile={profile.data} />;
}

function ProfileForm({ profile }: { profile: ProfileResponse }) {
  const save = useSaveProfile();
  const resend = useResendConfirmation();
  const cancelPending = useCancelPendingEmail();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const {
    register,
    handleSubmit,
    control,
    setError,
    setValue,
    formState: { errors },
  } = useForm<ProfileEditForm>({
    resolver: zodResolver(ProfileEditForm),
    defaultValues: { name: profile.name, username: profile.username, email: profile.email, phone: profile.phone ?? '', current_password: '' },
  });
  // A new e-mail or username could take the account: the current password confirms it (ADR 58).
  const [email, username, name] = useWatch({ control, name: ['email', 'username', 'name'] });
  const identityChanged = (email ?? '').trim().toLowerCase() !== profile.email.toLowerCase() || (username ?? '').trim().toLowerCase() !== profile.username.toLowerCase();
  // GxP mode (ADR 0061): one's name and username are GxP records (they print on signatures); their change needs a reason.
  const reason = useChangeReason((name ?? '').trim() !== profile.name || (username ?? '').trim() !== profile.username);

  const onSubmit = handleSubmit(async ({ current_password, ...fields }) => {
    setFailure(null);
    save.reset();
    if (identityChanged && !current_password) {
      setError('current_password', { message: PROFILE_MESSAGES.identityNeedsPassword }, { shouldFocus: true });
      return;
    }
    const why = reason.take();
    if (!why) return;
    const body: ProfileBody = { ...(identityChanged ? { ...fields, current_password } : fields), ...why };
    // The documents' check first (a taken address blocks the save with their message): it is the public, budgeted
    // POST /api/user/email-available (ADR 54). The server then answers alike for any address and the new e-mail waits
    // for its link (ADR 82).
    if (body.email.toLowerCase() !== profile.email.toLowerCase()) {
      setChecking(true);
      try {
        if (!(await isEmailAvailable(body.email))) {
          setFailure(MSG.emailTaken);
          return;
        }
      } catch (error) {
        setFailure(errorMessage(error, MSG.internalError));
        return;
      } finally {
        setChecking(false);
      }
    }
    save.mutate(body, {
      onSuccess: (saved) => {
        // The account keeps its address until the link is opened: the field shows it again, the alert the new one.
        setValue('email', saved.profile.email);
        setValue('current_password', '');
        reason.reset();
      },
      onError: (error) => setFailure(`${PROFILE_MESSAGES.saveFailed}: ${errorMessage(error, MSG.internalError)}`),
    });
  });

  return (
    <Stack maw={720}>
      <Group justify="space-between">
        <Title order={2}>Editar Perfil</Title>
        <Button variant="light" leftSection={<IconKey size={16} />} onClick={() => setPasswordOpen(true)}>
          Alterar senha
        </Button>
      </Group>
      {!profile.verified && (
        <Alert color="yellow" title="Confirme seu e-mail" icon={<IconMailExclamation />}>
          <Stack gap="xs" align="flex-start">
            Enviamos um link de confirmação para {profile.email}. Não recebeu?
            <Button size="xs" variant="default" loading={resend.isPending} onClick={() => resend.mutate()}>
              Reenviar e-mail
            </Button>
            {resend.isSuccess && resend.data.message}
            {resend.isError && errorMessage(resend.error, MSG.internalError)}
          </Stack>
        </Alert>
      )}
      {profile.pending_email && (
        <PendingEmailAlert email={profile.pending_email} onCancel={() => cancelPending.mutate()} cancelling={cancelPending.isPending} error={cancelPending.error} />
      )}
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            {save.isSuccess && (
              <Alert color="green" title="Sucesso!" icon={<IconCircleCheck />}>
                {save.data.message}
              </Alert>
            )}
            {failure && (
              <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
                {failure}
              </Alert>
            )}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Nome" withAsterisk autoComplete="name" error={errors.name?.message} {...register('name')} />
              <TextInput label="Usuário" withAsterisk autoComplete="username" error={errors.username?.message} {...register('username')} />
              <TextInput label="Email" type="email" withAsterisk autoComplete="email" error={errors.email?.message} {...register('email')} />
              <PhoneInput label="Telefone" withAsterisk error={errors.phone?.message} {...register('phone')} />
            </SimpleGrid>
            {identityChanged && (
              <PasswordInput
                label="Senha atual"
                description="O e-mail ou o usuário mudou: confirme com a sua senha. Avisaremos o e-mail atual da conta."
                withAsterisk
                autoComplete="current-password"
                maw={{ sm: 'calc(50% - var(--mantine-spacing-md) / 2)' }}
                error={errors.current_password?.message}
                {...register('current_password')}
              />
            )}
            {reason.field}
            <Group justify="flex-end">
              <Button type="submit" loading={checking || save.isPending}>
                Salvar
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <ChangePasswordModal opened={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </Stack>
  );
}
