import { Alert, Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { CreateWebhookBody, WEBHOOK_EVENT_NAMES, WEBHOOK_EVENTS, type CreatedWebhook } from '@sentinela/contract';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { CopyableBlock } from '../../../components/CopyableBlock';
import { FormModal } from '../../../components/FormModal';
import { errorMessage } from '../../../lib/api-client';
import { useCreateWebhook } from '../api/webhooks';

/** Novo webhook: the receiver's URL, the events, a description; then the signing secret, shown this once. */
export function CreateWebhookModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [description, setDescription] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const close = () => {
    setUrl('');
    setEvents([]);
    setDescription('');
    setProblem(null);
    create.reset();
    onClose();
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = CreateWebhookBody.safeParse({ url, events, description });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? null);
    setProblem(null);
    create.mutate(parsed.data);
  };

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title="Novo webhook"
      size="lg"
      onSubmit={submit}
      submitLabel="Criar webhook"
      pending={create.isPending}
      error={problem ?? (create.isError ? errorMessage(create.error, 'Não foi possível criar o webhook.') : null)}
      done={create.data ? <CreatedSecret webhook={create.data} onDone={close} /> : undefined}
      doneTitle="Webhook criado"
    >
      <TextInput
        label="URL"
        description="Endereço https:// do sistema que recebe os eventos."
        placeholder="https://erp.exemplo.com.br/sentinela"
        value={url}
        onChange={(event) => setUrl(event.currentTarget.value)}
        maxLength={2000}
        withAsterisk
        data-autofocus
      />
      <Checkbox.Group label="Eventos" value={events} onChange={setEvents} withAsterisk>
        <Stack gap="xs" mt="xs">
          {WEBHOOK_EVENTS.map((e) => (
            <Checkbox key={e} value={e} label={WEBHOOK_EVENT_NAMES[e]} description={e} />
          ))}
        </Stack>
      </Checkbox.Group>
      <TextInput label="Descrição" placeholder="Ex.: Alarmes para o sistema da qualidade" value={description} onChange={(event) => setDescription(event.currentTarget.value)} maxLength={200} />
    </FormModal>
  );
}

function CreatedSecret({ webhook, onDone }: { webhook: CreatedWebhook; onDone: () => void }) {
  return (
    <Stack>
      <Alert color="yellow" title="Copie o segredo agora" icon={<IconAlertTriangle />}>
        Este segredo não será mostrado novamente. O sistema que recebe os eventos usa-o para conferir a assinatura de cada entrega.
      </Alert>
      <CopyableBlock label="Segredo de assinatura" value={webhook.secret} />
      <Text size="sm">
        Cada entrega traz os cabeçalhos <b>webhook-id</b>, <b>webhook-timestamp</b> e <b>webhook-signature</b>, conforme o padrão Standard
        Webhooks: confira-os com a biblioteca <b>standardwebhooks</b> (ou outra do padrão) e responda 2xx. Use “Testar” para enviar um evento
        de teste agora.
      </Text>
      <CopyableBlock
        label="Conferência em Node.js"
        value={`import { Webhook } from 'standardwebhooks';\nconst evento = new Webhook(process.env.SENTINELA_WEBHOOK_SECRET).verify(corpo, cabecalhos);`}
        block
      />
      <Group justify="flex-end">
        <Button onClick={onDone}>Concluir</Button>
      </Group>
    </Stack>
  );
}
