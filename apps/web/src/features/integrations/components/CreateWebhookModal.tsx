import { Checkbox, Stack, Text, TextInput } from '@mantine/core';
import { CreateWebhookBody, WEBHOOK_EVENT_NAMES, WEBHOOK_EVENTS, type CreatedWebhook } from '@sentinela/contract';
import { useState } from 'react';
import { CopyableBlock } from '../../../components/CopyableBlock';
import { FormModal } from '../../../components/FormModal';
import { ShownOnceSecret } from '../../../components/ShownOnceSecret';
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
    <ShownOnceSecret
      title="Copie o segredo agora"
      warning="Este segredo não será mostrado novamente. O sistema que recebe os eventos usa-o para conferir a assinatura de cada entrega."
      label="Segredo de assinatura"
      value={webhook.secret}
      onDone={onDone}
    >
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
    </ShownOnceSecret>
  );
}
