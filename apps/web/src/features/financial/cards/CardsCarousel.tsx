import { ActionIcon, Alert, Button, Center, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { CARD_MESSAGES, MSG, type PaymentCard } from '@sentinela/contract';
import { IconAlertCircle, IconChevronLeft, IconChevronRight, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { errorMessage } from '../../../lib/api-client';
import { AddCardModal } from './AddCardModal';
import { useCards, useMakeMainCard, useRemoveCard } from './api';
import { cardName, PaymentCardView } from './PaymentCardView';

/** Cards shown at once by the window's width (document 000 §9): 5 from 3000 px, 3 from 1024 px, else 1. */
export function cardsPerView(width: 'wide' | 'medium' | 'narrow'): number {
  return width === 'wide' ? 5 : width === 'medium' ? 3 : 1;
}

/**
 * The Financeiro's cards carousel (A9; issue 13 item 4): the enterprise's cards (the super admin's pick: enterpriseId),
 * infinite (the arrows wrap around), with "Cartão Principal" / "Tornar Principal", Remover (confirmed) and the
 * add-card button. Cards are tokenised by the payment provider in the browser (ADR 31).
 */
export function CardsCarousel({ enterpriseId }: { enterpriseId?: string }) {
  const cards = useCards(enterpriseId);
  const makeMain = useMakeMainCard();
  const remove = useRemoveCard();
  const wide = useMediaQuery('(min-width: 3000px)');
  const medium = useMediaQuery('(min-width: 1024px)');
  const [start, setStart] = useState(0);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PaymentCard | null>(null);

  const list = cards.data?.data ?? [];
  const columns = cardsPerView(wide ? 'wide' : medium ? 'medium' : 'narrow');
  const perView = Math.min(columns, Math.max(list.length, 1));
  const first = list.length ? start % list.length : 0;
  const shown = list.length ? Array.from({ length: Math.min(perView, list.length) }, (_, i) => list[(first + i) % list.length]!) : [];
  const scrolls = list.length > perView;
  const step = (by: number) => setStart((current) => (((current + by) % list.length) + list.length) % list.length);
  const busy = makeMain.isPending || remove.isPending;

  const onMakeMain = (card: PaymentCard) =>
    makeMain.mutate(card.id, {
      onSuccess: () => {
        // The new main card comes first in the list: show it.
        setStart(0);
        notifications.show({ color: 'teal', title: MSG.successTitle, message: `${CARD_MESSAGES.madeMain} ${cardName(card)}.` });
      },
      onError: (error) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, 'Não foi possível alterar o cartão principal.') }),
    });

  const confirmRemove = () => {
    const card = removing;
    if (!card) return;
    remove.mutate(card.id, {
      onSuccess: () => {
        setRemoving(null);
        setStart(0);
        notifications.show({ color: 'teal', title: MSG.successTitle, message: `${CARD_MESSAGES.removed} ${cardName(card)}.` });
      },
      onError: (error) => {
        setRemoving(null);
        notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, 'Não foi possível remover o cartão.') });
      },
    });
  };

  return (
    <Stack gap="sm" component="section" aria-label="Cartões">
      <Group justify="space-between">
        <Title order={3}>Cartões</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)} disabled={!cards.data}>
          Adicionar cartão
        </Button>
      </Group>

      {cards.isPending && (
        <Center py="lg">
          <Loader aria-label="Carregando cartões" />
        </Center>
      )}
      {cards.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(cards.error, 'Não foi possível carregar os cartões.')}
        </Alert>
      )}
      {cards.data && list.length === 0 && (
        <Paper withBorder p="lg" radius="md">
          <Text c="dimmed" ta="center">
            {cards.data.tokenizer ? 'Nenhum cartão cadastrado.' : 'Nenhum cartão cadastrado. Pagamento por cartão não está disponível neste servidor: pague suas faturas por PIX.'}
          </Text>
        </Paper>
      )}
      {shown.length > 0 && (
        <Group wrap="nowrap" gap="xs" align="center">
          {scrolls && (
            <ActionIcon variant="default" size="lg" radius="xl" aria-label="Cartão anterior" onClick={() => step(-1)}>
              <IconChevronLeft size={18} />
            </ActionIcon>
          )}
          {/* As many columns as the width allows even with fewer cards: one card keeps a card's size. */}
          <SimpleGrid cols={columns} spacing="md" style={{ flex: 1, minWidth: 0 }}>
            {shown.map((card) => (
              <PaymentCardView key={card.id} card={card} busy={busy} onMakeMain={() => onMakeMain(card)} onRemove={() => setRemoving(card)} />
            ))}
          </SimpleGrid>
          {scrolls && (
            <ActionIcon variant="default" size="lg" radius="xl" aria-label="Próximo cartão" onClick={() => step(1)}>
              <IconChevronRight size={18} />
            </ActionIcon>
          )}
        </Group>
      )}
      {scrolls && (
        <Text size="xs" c="dimmed" ta="center" aria-live="polite">
          {/* Where the first card shown stands in the list. */}
          {`${first + 1} de ${list.length}`}
        </Text>
      )}

      <AddCardModal opened={adding} onClose={() => setAdding(false)} tokenizer={cards.data?.tokenizer ?? null} enterpriseId={enterpriseId} />
      <ConfirmModal
        opened={removing !== null}
        title="Remover cartão"
        confirmLabel="Remover"
        danger
        loading={remove.isPending}
        onConfirm={confirmRemove}
        onClose={() => setRemoving(null)}
      >
        {removing ? `Remover o cartão ${cardName(removing)}? Ele também será apagado no provedor de pagamento.` : ''}
      </ConfirmModal>
    </Stack>
  );
}
