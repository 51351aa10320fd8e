import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Alert, Anchor, Button, CopyButton, Group, Modal, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { MSG, RegisterEnterpriseForm } from '@sentinela/contract';
import { IconAlertCircle, IconArrowLeft, IconCheck, IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { useCreateEnterprise } from '../api/create-enterprise';

interface Created {
  enterprise: string;
  username: string;
  password: string;
}

/** /register-enterprise "Cadastro de empresa" (M3): the company and its administrator, whose login the server makes. */
export function RegisterEnterprisePage() {
  const navigate = useNavigate();
  const create = useCreateEnterprise();
  const [created, setCreated] = useState<Created | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<RegisterEnterpriseForm>({
    resolver: zodResolver(RegisterEnterpriseForm),
    defaultValues: { name: '', email: '', password: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(({ name, email, password }) =>
    create.mutate(
      { name, email, password },
      { onSuccess: (answer) => setCreated({ enterprise: answer.client.name, username: answer.user.username, password }) },
    ),
  );

  return (
    <Stack maw={560}>
      <Anchor component={Link} to={paths.enterprises} size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          Empresas
        </Group>
      </Anchor>
      <Title order={2}>Cadastro de empresa</Title>
      <Paper withBorder radius="md" p="lg">
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            {create.isError && (
              <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
                {errorMessage(create.error, 'Não foi possível cadastrar a empresa.')}
              </Alert>
            )}
            <TextInput label="Nome" withAsterisk autoComplete="organization" error={errors.name?.message} {...register('name')} />
            <TextInput label="Email" type="email" withAsterisk autoComplete="email" error={errors.email?.message} {...register('email')} />
            <PasswordInput
              label="Senha"
              withAsterisk
              autoComplete="new-password"
              description="No mínimo 8 caracteres, com letras, números e um destes caracteres especiais: @$!%*#?&"
              error={errors.password?.message}
              {...register('password')}
            />
            <PasswordInput
              label="Confirmar Senha"
              withAsterisk
              autoComplete="new-password"
              error={errors.confirmPassword?.message}
              {...register('confirmPassword')}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={create.isPending}>
                Salvar
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      {/* Closes only by its button: the generated login must be seen before leaving. */}
      <Modal
        opened={created !== null}
        onClose={() => {}}
        title={MSG.enterpriseCreated}
        withCloseButton={false}
        closeOnClickOutside={false}
        closeOnEscape={false}
        centered
      >
        {created && (
          <Stack>
            <Text size="sm">
              Anote os dados de acesso do administrador da empresa <b>{created.enterprise}</b>:
            </Text>
            <Credential label="Usuário" name="username" value={created.username} />
            <Credential label="Senha" name="password" value={created.password} />
            <Button onClick={() => void navigate(paths.enterprises)}>Voltar para Empresas</Button>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}

function Credential({ label, name, value }: { label: string; name: string; value: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed" w={64}>
        {label}:
      </Text>
      <Text fw={700} ff="monospace" data-testid={`credential-${name}`} style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={copied ? 'Copiado' : `Copiar ${label.toLowerCase()}`}>
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        )}
      </CopyButton>
    </Group>
  );
}
