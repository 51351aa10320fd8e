import { TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG, RenameGatewayBody, type Gateway } from '@sentinela/contract';
import { useState } from 'react';
import { FormModal } from '../../../components/FormModal';
import { errorMessage } from '../../../lib/api-client';
import { useRenameGateway } from '../api/gateways';

/** Renomear: a gateway's new name. Closes only by its buttons. */
export function RenameGatewayModal({ gateway, opened, onClose }: { gateway: Gateway | null; opened: boolean; onClose: () => void }) {
  const rename = useRenameGateway();
  const [name, setName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const value = name ?? gateway?.name ?? '';

  const close = () => {
    setName(null);
    setError(null);
    rename.reset();
    onClose();
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!gateway) return;
    const parsed = RenameGatewayBody.safeParse({ name: value });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    rename.mutate(
      { id: gateway._id, name: parsed.data.name },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', title: MSG.successTitle, message: 'Gateway renomeado com sucesso!' });
          close();
        },
      },
    );
  };

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title="Renomear gateway"
      onSubmit={submit}
      submitLabel="Salvar"
      pending={rename.isPending}
      error={rename.isError ? errorMessage(rename.error, 'Não foi possível renomear o gateway.') : null}
    >
      <TextInput label="Nome" value={value} onChange={(event) => setName(event.currentTarget.value)} error={error} maxLength={80} withAsterisk data-autofocus />
    </FormModal>
  );
}
