import { Stack, Title } from '@mantine/core';
import { CardsCarousel } from './cards/CardsCarousel';

/**
 * /financial "Financeiro" (A9). In this branch only the cards carousel (issue 13 item 4); the Faturas tab and the
 * rest of the page come with the Financeiro screen's own work, which places this carousel in it.
 */
export function FinancialPage() {
  return (
    <Stack>
      <Title order={2}>Financeiro</Title>
      <CardsCarousel />
    </Stack>
  );
}
