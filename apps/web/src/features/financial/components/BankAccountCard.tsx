import { Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { useBankAccount } from '../api/bank-account';

/**
 * The platform's receiving bank account (document 000's fields: bank_name, agencia, conta, type, name), from the
 * server's settings; nothing at all when none is configured or it could not be loaded.
 */
export function BankAccountCard() {
  const account = useBankAccount().data?.bank_account;
  if (!account) return null;
  const item = (label: string, value: string) => (
    <div>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </div>
  );
  return (
    <Paper withBorder radius="md" p="md" data-testid="bank-account">
      <Title order={5} mb="xs">
        Dados bancários para pagamento
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" verticalSpacing="xs">
        {item('Banco', account.bank_name)}
        {item('Agência', account.agencia)}
        {item(`Conta ${account.type.toLowerCase()}`, account.conta)}
        {item('Favorecido', account.name)}
      </SimpleGrid>
    </Paper>
  );
}
