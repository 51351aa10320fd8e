import '@mantine/core/styles/Combobox.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, Loader, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { CREATE_USER_MESSAGES, CreateUserForm, MSG, Profile } from '@sentinela/contract';
import { IconAlertCircle, IconArrowLeft, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { useChosenEnterprise } from '../../../components/EnterprisePicker';
import { PhoneInput } from '../../../components/form/PhoneInput';
import { errorMessage } from '../../../lib/api-client';
import { isEmailAvailable } from '../../../lib/email-availability';
import { paths, withQuery } from '../../../lib/paths';
import { useRequiredSession } from '../../../lib/session';
import { useAcl, useCreateUser } from '../api/create-user';
import { useEnterprise } from '../api/get-enterprise';

/**
 * /register-user (A13), from "Usuários da empresa": a new user of the enterprise with a profile from the ACL list.
 * No password is typed here: the user receives an e-mail with a code to choose their own (ADR 0017).
 */
export function RegisterUserPage() {
  const { user: me } = useRequiredSession();
  const { clientId } = useChosenEnterprise();
  const enterprise = useEnterprise(clientId);
  const acl = useAcl();
  const create = useCreateUser();
  const [failure, setFailure] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<CreateUserForm>({
    resolver: zodResolver(CreateUserForm),
    defaultValues: { name: '', username: '', email: '', phone: '', profileId: String(Profile.User) },
  });

  const onSubmit = handleSubmit(async (form) => {
    if (!clientId) return;
    setFailure(null);
    setChecking(true);
    try {
      // The documents check the e-mail first; the server checks it again when creating the user.
      if (!(await isEmailAvailable(form.email))) {
        setFailure(MSG.emailTaken);
        return;
      }
    } catch (error) {
      setFailure(errorMessage(error, CREATE_USER_MESSAGES.failed));
      return;
    } finally {
      setChecking(false);
    }
    const { profileId, ...person } = form;
    create.mutate(
      {
        enterpriseId: clientId,
        body: { ...person, profile: { _id: Number(profileId) }, available_devices: [], ...(me.profile._id === Profile.SuperAdmin ? { client_id: clientId } : {}) },
      },
      { onError: (error) => setFailure(errorMessage(error, CREATE_USER_MESSAGES.failed)) },
    );
  });

  const back = (
    <Anchor component={Link} to={withQuery(paths.enterpriseUsers, { id: clientId })} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={16} /> Usuários da empresa
      </Group>
    </Anchor>
  );

  if (!clientId) {
    return (
      <Stack>
        {back}
        <Text c="dimmed">Selecione uma empresa em Usuários para cadastrar um usuário.</Text>
      </Stack>
    );
  }

  if (create.isSuccess) {
    return (
      <Paper withBorder radius="md" p="xl" maw={720} mx="auto">
        <Stack>
          <Alert color="green" title={CREATE_USER_MESSAGES.created} icon={<IconCircleCheck />}>
            Enviamos ao novo usuário um e-mail com um código para ele escolher a própria senha.
          </Alert>
          <Button component={Link} to={paths.myDevices} style={{ alignSelf: 'flex-start' }}>
            {CREATE_USER_MESSAGES.backToDevices}
          </Button>
        </Stack>
      </Paper>
    );
  }

  return (
    <Stack maw={720} mx="auto" w="100%">
      {back}
      <Title order={2}>{enterprise.data ? `Cadastro de usuário — ${enterprise.data.name}` : 'Cadastro de usuário'}</Title>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        <form onSubmit={onSubmit} noValidate aria-label="Cadastro de usuário">
          <Stack>
            {failure && (
              <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
                {failure === MSG.emailTaken ? failure : CREATE_USER_MESSAGES.failed}
                {failure !== MSG.emailTaken && failure !== CREATE_USER_MESSAGES.failed && (
                  <Text size="sm" mt={4}>
                    {failure}
                  </Text>
                )}
              </Alert>
            )}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Nome" withAsterisk error={errors.name?.message} {...register('name')} />
              <TextInput label="Usuário" withAsterisk autoComplete="off" error={errors.username?.message} {...register('username')} />
              <TextInput label="Email" type="email" withAsterisk autoComplete="off" error={errors.email?.message} {...register('email')} />
              <PhoneInput label="Telefone" withAsterisk error={errors.phone?.message} {...register('phone')} />
            </SimpleGrid>
            <Controller
              control={control}
              name="profileId"
              render={({ field }) => (
                <Select
                  label="Perfil"
                  withAsterisk
                  data={(acl.data?.content ?? []).map((p) => ({ value: String(p._id), label: p.name }))}
                  value={field.value || null}
                  onChange={(v) => field.onChange(v ?? '')}
                  rightSection={acl.isPending ? <Loader size="xs" /> : undefined}
                  error={errors.profileId?.message ?? (acl.isError ? errorMessage(acl.error, MSG.internalError) : undefined)}
                  allowDeselect={false}
                />
              )}
            />
            <Text size="xs" c="dimmed">
              O usuário receberá um e-mail com um código para escolher a própria senha.
            </Text>
            <Group justify="space-between">
              <Button component={Link} to={withQuery(paths.enterpriseUsers, { id: clientId })} variant="default">
                Voltar
              </Button>
              <Button type="submit" loading={checking || create.isPending}>
                Cadastrar
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
