import { Badge, Box, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { PaymentCard } from '@sentinela/contract';
import { IconCreditCard, IconStarFilled } from '@tabler/icons-react';

interface PaymentCardViewProps {
  card: PaymentCard;
  busy: boolean;
  onMakeMain: () => void;
  onRemove: () => void;
}

/** Expiry as printed on cards: MM/AA. */
export const cardExpiry = (card: Pick<PaymentCard, 'exp_month' | 'exp_year'>) => `${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year % 100).padStart(2, '0')}`;

/** How a card is named in buttons and messages: "Visa final 0010". */
export const cardName = (card: Pick<PaymentCard, 'brand' | 'last4'>) => `${card.brand} final ${card.last4}`;

/**
 * One card of the carousel, drawn as a card: brand, masked number with its last four digits, holder and expiry; the
 * "Cartão Principal" badge on the main one, "Tornar Principal" on the others (document 000 §4), and Remover.
 */
export function PaymentCardView({ card, busy, onMakeMain, onRemove }: PaymentCardViewProps) {
  return (
    <Paper
      component="article"
      aria-label={`Cartão ${cardName(card)}`}
      radius="lg"
      p="md"
      shadow="sm"
      style={{
        color: 'white',
        background: card.main ? 'linear-gradient(135deg, #0b3d91 0%, #1c7ed6 100%)' : 'linear-gradient(135deg, #343a40 0%, #5c677d 100%)',
        minHeight: 190,
      }}
    >
      <Stack gap="sm" justify="space-between" h="100%">
        <Group justify="space-between" wrap="nowrap">
          <IconCreditCard size={28} aria-hidden />
          <Text fw={700} size="lg">
            {card.brand}
          </Text>
        </Group>
        <Text ff="monospace" size="lg" style={{ letterSpacing: 2, whiteSpace: 'nowrap' }} aria-label={`final ${card.last4}`}>
          •••• •••• •••• {card.last4}
        </Text>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Box style={{ minWidth: 0 }}>
            <Text size="xs" opacity={0.8}>
              Titular
            </Text>
            <Text size="sm" fw={600} truncate="end" title={card.holder}>
              {card.holder || '—'}
            </Text>
          </Box>
          <Box>
            <Text size="xs" opacity={0.8}>
              Validade
            </Text>
            <Text size="sm" fw={600}>
              {cardExpiry(card)}
            </Text>
          </Box>
        </Group>
        <Group justify="space-between" gap="xs">
          {card.main ? (
            <Badge color="yellow" variant="filled" leftSection={<IconStarFilled size={12} aria-hidden />}>
              Cartão Principal
            </Badge>
          ) : (
            <Button size="xs" variant="white" onClick={onMakeMain} disabled={busy}>
              Tornar Principal
            </Button>
          )}
          <Button size="xs" variant="subtle" color="gray.0" onClick={onRemove} disabled={busy} aria-label={`Remover ${cardName(card)}`}>
            Remover
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
