import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG, RenameGatewayBody, type Gateway } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
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
    <Modal opened={opened} onClose={close} title="Renomear gateway" closeOnClickOutside={false} closeOnEscape={false} withCloseButton={false} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          {rename.isError && (
            <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
              {errorMessage(rename.error, 'Não foi possível renomear o gateway.')}
            </Alert>
          )}
          <TextInput label="Nome" value={value} onChange={(event) => setName(event.currentTarget.value)} error={error} maxLength={80} withAsterisk data-autofocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={rename.isPending}>
              Cancelar
            </Button>
            <Button type="submit" loading={rename.isPending}>
              Salvar
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
