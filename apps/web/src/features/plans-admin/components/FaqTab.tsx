import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Alert, Button, Card, Center, Group, Loader, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { FAQ_ADMIN_MESSAGES, FaqBody, MSG, type AdminFaqItem } from '@sentinela/contract';
import { IconAlertCircle, IconArrowDown, IconArrowUp, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { errorMessage } from '../../../lib/api-client';
import { useAdminFaq, useDeleteFaq, useReorderFaq, useSaveFaq } from '../api/plans-admin';

const failed = (fallback: string) => (error: unknown) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, fallback) });

/** The FAQ of the landing page, in the order shown there: add, edit, move up or down, delete. */
export function FaqTab() {
  const faq = useAdminFaq();
  const reorder = useReorderFaq();
  const remove = useDeleteFaq();
  const [editing, setEditing] = useState<{ item: AdminFaqItem | null } | null>(null);
  const [deleting, setDeleting] = useState<AdminFaqItem | null>(null);
  const items = faq.data ?? [];

  const move = (index: number, by: -1 | 1) => {
    const ids = items.map((i) => i._id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    reorder.mutate(ids, { onSuccess: () => notifications.show({ color: 'teal', title: MSG.successTitle, message: FAQ_ADMIN_MESSAGES.reordered }), onError: failed('Não foi possível reordenar.') });
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting._id, {
      onSuccess: () => notifications.show({ color: 'teal', title: MSG.successTitle, message: FAQ_ADMIN_MESSAGES.deleted }),
      onError: failed('Não foi possível excluir a pergunta.'),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <Stack>
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" maw={640}>
          As perguntas aparecem na seção Faq da página inicial, nesta ordem.
        </Text>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ item: null })}>
          Nova pergunta
        </Button>
      </Group>
      {faq.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(faq.error, 'Não foi possível carregar as perguntas.')}
        </Alert>
      )}
      {faq.isPending && !faq.isError && (
        <Center p="lg">
          <Loader size="sm" />
        </Center>
      )}
      {faq.isSuccess && items.length === 0 && (
        <Text c="dimmed" ta="center" p="lg">
          {FAQ_ADMIN_MESSAGES.empty}
        </Text>
      )}
      {items.map((item, index) => (
        <Card key={item._id} withBorder padding="sm" data-testid="faq-item">
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
            <Stack gap={4} style={{ minWidth: 0 }}>
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {item.question}
              </Text>
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                {item.answer}
              </Text>
            </Stack>
            <Stack gap={4} align="flex-end">
              <Group gap={4} wrap="nowrap">
                <ActionIcon variant="light" aria-label={`Subir: ${item.question}`} disabled={index === 0 || reorder.isPending} onClick={() => move(index, -1)}>
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon variant="light" aria-label={`Descer: ${item.question}`} disabled={index === items.length - 1 || reorder.isPending} onClick={() => move(index, 1)}>
                  <IconArrowDown size={16} />
                </ActionIcon>
              </Group>
              <Group gap={4} wrap="nowrap">
                <Button size="xs" variant="light" onClick={() => setEditing({ item })}>
                  Editar
                </Button>
                <Button size="xs" variant="light" color="red" onClick={() => setDeleting(item)}>
                  Excluir
                </Button>
              </Group>
            </Stack>
          </Group>
        </Card>
      ))}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.item ? 'Editar pergunta' : 'Nova pergunta'}
        closeOnClickOutside={false}
        closeOnEscape={false}
        withCloseButton={false}
        centered
        size="lg"
      >
        {editing && <FaqForm key={editing.item?._id ?? 'new'} item={editing.item} onClose={() => setEditing(null)} />}
      </Modal>
      <ConfirmModal opened={deleting !== null} title="Excluir pergunta" confirmLabel="Excluir" danger loading={remove.isPending} onConfirm={confirmDelete} onClose={() => setDeleting(null)}>
        {`Excluir a pergunta "${deleting?.question ?? ''}"? Ela deixa de aparecer na página inicial.`}
      </ConfirmModal>
    </Stack>
  );
}

function FaqForm({ item, onClose }: { item: AdminFaqItem | null; onClose: () => void }) {
  const save = useSaveFaq();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<FaqBody>({ resolver: zodResolver(FaqBody), defaultValues: { question: item?.question ?? '', answer: item?.answer ?? '' } });

  const onSubmit = handleSubmit((body) =>
    save.mutate(
      { id: item?._id ?? null, body },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', title: MSG.successTitle, message: item ? FAQ_ADMIN_MESSAGES.updated : FAQ_ADMIN_MESSAGES.created });
          onClose();
        },
      },
    ),
  );

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        {save.isError && (
          <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
            {errorMessage(save.error, 'Não foi possível salvar a pergunta.')}
          </Alert>
        )}
        <TextInput label="Pergunta" withAsterisk maxLength={200} data-autofocus error={errors.question?.message} {...register('question')} />
        <Textarea label="Resposta" withAsterisk rows={6} maxLength={2000} error={errors.answer?.message} {...register('answer')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            Cancelar
          </Button>
          <Button type="submit" loading={save.isPending}>
            Salvar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
