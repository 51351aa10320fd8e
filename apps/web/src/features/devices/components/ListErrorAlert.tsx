import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** The devices list could not be loaded (D1, D2). Loaded when it happens: the lists' first load does not carry it. */
export default function ListErrorAlert() {
  return (
    <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
      Não foi possível encontrar dispositivos
    </Alert>
  );
}
