import { Checkbox, Select, Stack, Text, TextInput } from '@mantine/core';
import { API_TOKEN_SCOPE_NAMES, API_TOKEN_SCOPES, CreateApiTokenBody, type ApiTokenScope, type CreatedApiToken } from '@sentinela/contract';
import { useState } from 'react';
import { CopyableBlock } from '../../../components/CopyableBlock';
import { FormModal } from '../../../components/FormModal';
import { ShownOnceSecret } from '../../../components/ShownOnceSecret';
import { errorMessage } from '../../../lib/api-client';
import { useCreateApiToken } from '../api/api-tokens';
import { csvCurlExample, tokenCurlExample } from '../examples';

const DAY_MS = 24 * 60 * 60 * 1000;
const VALIDITY = [
  { value: 'none', label: 'Sem validade (até ser revogado)' },
  { value: '30', label: '30 dias' },
  { value: '90', label: '90 dias' },
  { value: '365', label: '1 ano' },
];

/** Novo token: a name, its scopes and validity; then the token, shown this once, with curl examples for this server. */
export function CreateApiTokenModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateApiToken();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [validity, setValidity] = useState<string | null>('none');
  const [problem, setProblem] = useState<string | null>(null);

  const close = () => {
    setName('');
    setScopes([]);
    setValidity('none');
    setProblem(null);
    create.reset();
    onClose();
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const expiresAt = validity && validity !== 'none' ? new Date(Date.now() + Number(validity) * DAY_MS).toISOString() : null;
    const parsed = CreateApiTokenBody.safeParse({ name, scopes, expires_at: expiresAt });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? null);
    setProblem(null);
    create.mutate(parsed.data);
  };

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title="Novo token de API"
      size="lg"
      onSubmit={submit}
      submitLabel="Criar token"
      pending={create.isPending}
      error={problem ?? (create.isError ? errorMessage(create.error, 'Não foi possível criar o token.') : null)}
      done={create.data ? <CreatedToken token={create.data} onDone={close} /> : undefined}
      doneTitle="Token criado"
    >
      <TextInput
        label="Nome"
        description="Para reconhecer o sistema que usa o token."
        placeholder="Ex.: ERP — importação de leituras"
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        maxLength={80}
        withAsterisk
        data-autofocus
      />
      <Checkbox.Group label="Escopos" description="O que o token pode fazer; o resto é recusado." value={scopes} onChange={setScopes} withAsterisk>
        <Stack gap="xs" mt="xs">
          {API_TOKEN_SCOPES.map((scope) => (
            <Checkbox key={scope} value={scope} label={API_TOKEN_SCOPE_NAMES[scope]} description={scope} />
          ))}
        </Stack>
      </Checkbox.Group>
      <Select label="Validade" data={VALIDITY} value={validity} onChange={setValidity} allowDeselect={false} comboboxProps={{ withinPortal: true }} />
    </FormModal>
  );
}

/** The token, once, and how to call this server with it. */
function CreatedToken({ token, onDone }: { token: CreatedApiToken; onDone: () => void }) {
  const origin = window.location.origin;
  const scopes = token.scopes as ApiTokenScope[];
  return (
    <ShownOnceSecret
      title="Copie o token agora"
      warning={<>Este token não será mostrado novamente. Guarde-o no sistema “{token.name}”; se ele se perder, revogue este token e crie outro.</>}
      label="Token"
      value={token.token}
      onDone={onDone}
    >
      <Text size="sm">
        Envie o token no cabeçalho <b>Authorization: Bearer &lt;token&gt;</b> nas chamadas da API (descritas em{' '}
        <a href="/api/docs" target="_blank" rel="noreferrer">
          /api/docs
        </a>
        ).
      </Text>
      <CopyableBlock label="Exemplo com curl" value={tokenCurlExample(origin, token.token, scopes)} block />
      {scopes.includes('readings:read') && <CopyableBlock label="Leituras de um período em CSV" value={csvCurlExample(origin, token.token)} block />}
    </ShownOnceSecret>
  );
}
