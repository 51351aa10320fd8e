import '@mantine/core/styles/Combobox.css';
import { Alert, Select, TextInput } from '@mantine/core';
import { CreateGatewayBody, type CreatedGateway } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useEnterprises } from '../../../components/EnterprisePicker';
import { FormModal } from '../../../components/FormModal';
import { ShownOnceSecret } from '../../../components/ShownOnceSecret';
import { errorMessage } from '../../../lib/api-client';
import { useCreateGateway, useGatewayConnection } from '../api/gateways';
import { ConnectionInstructions } from './ConnectionInstructions';

interface CreateGatewayModalProps {
  opened: boolean;
  onClose: () => void;
  /** The super admin chooses the gateway's enterprise (or none); an enterprise admin's is its own. */
  choosesEnterprise: boolean;
}

/**
 * Novo gateway: a name (and, for the super admin, an enterprise), then the key, shown this once, with the
 * instructions to send readings over HTTP, MQTT or from a Ruuvi Gateway to this server. Closes only by its buttons.
 */
export function CreateGatewayModal({ opened, onClose, choosesEnterprise }: CreateGatewayModalProps) {
  const create = useCreateGateway();
  const [name, setName] = useState('');
  const [enterpriseId, setEnterpriseId] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);

  const close = () => {
    setName('');
    setEnterpriseId(null);
    setNameError(null);
    create.reset();
    onClose();
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = CreateGatewayBody.safeParse({ name, enterprise_id: choosesEnterprise ? enterpriseId : undefined });
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setNameError(null);
    create.mutate(parsed.data);
  };

  const created = create.data;
  return (
    <FormModal
      opened={opened}
      onClose={close}
      title="Novo gateway"
      size="xl"
      onSubmit={submit}
      submitLabel="Criar gateway"
      pending={create.isPending}
      error={create.isError ? errorMessage(create.error, 'Não foi possível criar o gateway.') : null}
      done={created ? <CreatedKey gateway={created} onDone={close} /> : undefined}
      doneTitle="Gateway criado"
    >
      <TextInput
        label="Nome"
        placeholder="Ex.: Câmara fria 2 — doca"
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={nameError}
        maxLength={80}
        withAsterisk
        data-autofocus
      />
      {choosesEnterprise && <EnterpriseSelect value={enterpriseId} onChange={setEnterpriseId} />}
    </FormModal>
  );
}

function EnterpriseSelect({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const enterprises = useEnterprises();
  return (
    <Select
      label="Empresa"
      description="Os dispositivos dessa empresa poderão receber leituras deste gateway. Sem empresa, só os dispositivos associados a ele."
      placeholder={enterprises.isPending ? 'Carregando...' : 'Nenhuma (gateway da plataforma)'}
      data={(enterprises.data ?? []).map((e) => ({ value: e._id, label: e.name }))}
      value={value}
      onChange={onChange}
      searchable
      clearable
      nothingFoundMessage="Nada encontrado..."
      error={enterprises.isError ? 'Não foi possível carregar as empresas.' : undefined}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** The key, once, and how to use it with this server's real addresses. */
function CreatedKey({ gateway, onDone }: { gateway: CreatedGateway; onDone: () => void }) {
  const connection = useGatewayConnection();
  const [now] = useState(() => new Date());
  const data = connection.data;
  return (
    <ShownOnceSecret
      title="Copie a chave agora"
      warning={<>Esta chave não será mostrada novamente. Guarde-a no gateway “{gateway.name}”; se ela se perder, revogue este gateway e crie outro.</>}
      label="Chave do gateway"
      value={gateway.key}
      onDone={onDone}
    >
      {connection.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(connection.error, 'Não foi possível carregar os endereços de envio.')}
        </Alert>
      )}
      {data && <ConnectionInstructions connection={data} gatewayKey={gateway.key} now={now} />}
    </ShownOnceSecret>
  );
}
