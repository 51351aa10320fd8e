import { Alert, Button, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { CARD_MESSAGES, MSG, type CardTokenizer } from '@sentinela/contract';
import { IconAlertCircle, IconLock, IconQrcode } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useAddCard } from './api';
import { cardInputProblem, digitsOf, tokenizeCard, TokenizeError, type CardInput } from './tokenize';

interface AddCardModalProps {
  opened: boolean;
  onClose: () => void;
  /** Where the browser tokenises; null: no provider on this server (the modal offers PIX instead). */
  tokenizer: CardTokenizer | null;
  enterpriseId: string | undefined;
}

/** The providers' names as their customers know them. */
const PROVIDER_NAMES: Record<CardTokenizer['provider'], string> = { pagarme: 'Pagar.me' };

const EMPTY: CardInput = { number: '', holder: '', expiry: '', cvv: '' };

/** "4000000000000010" → "4000 0000 0000 0010", as typed. */
const groupDigits = (text: string) => digitsOf(text).slice(0, 19).replace(/(\d{4})(?=\d)/g, '$1 ');

/** "1228" → "12/28", as typed. */
function maskExpiry(text: string): string {
  const digits = digitsOf(text).slice(0, 6);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/**
 * Adicionar cartão. The form's number and CVV go from this browser straight to the payment provider, which answers
 * a token; only the token is sent to our server (ADR 31). The form is no HTML form submission: nothing of it can be
 * posted to our origin. Without a provider, the modal says so and points to paying by PIX.
 */
export function AddCardModal({ opened, onClose, tokenizer, enterpriseId }: AddCardModalProps) {
  const add = useAddCard();
  const [input, setInput] = useState<CardInput>(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    if (busy) return;
    setInput(EMPTY);
    setProblem(null);
    add.reset();
    onClose();
  };

  const set = (field: keyof CardInput) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setInput((current) => ({
      ...current,
      [field]: field === 'number' ? groupDigits(value) : field === 'expiry' ? maskExpiry(value) : field === 'cvv' ? digitsOf(value).slice(0, 4) : value,
    }));
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!tokenizer) return;
    const invalid = cardInputProblem(input);
    if (invalid) return setProblem(invalid);
    setProblem(null);
    setBusy(true);
    try {
      const token = await tokenizeCard(tokenizer, input);
      const card = await add.mutateAsync({ token, ...(enterpriseId ? { enterprise_id: enterpriseId } : {}) });
      notifications.show({ color: 'teal', title: MSG.successTitle, message: `${CARD_MESSAGES.added} ${card.brand} final ${card.last4}.` });
      setInput(EMPTY);
      add.reset();
      onClose();
    } catch (error) {
      setProblem(error instanceof TokenizeError ? error.message : errorMessage(error, 'Não foi possível adicionar o cartão.'));
    } finally {
      setBusy(false);
    }
  };

  if (!tokenizer) {
    return (
      <Modal opened={opened} onClose={onClose} title="Adicionar cartão" centered>
        <Stack>
          <Alert color="blue" icon={<IconQrcode />} title="Pagamento por cartão indisponível">
            Este servidor não tem um provedor de pagamento por cartão configurado, então não é possível cadastrar cartões.
          </Alert>
          <Text size="sm">
            Pague suas faturas por PIX: na aba <b>Faturas</b>, clique em <b>Pagar Fatura</b> na fatura em aberto para ver o código PIX copia e cola e o QR
            code.
          </Text>
          <Group justify="flex-end">
            <Button onClick={onClose}>Entendi</Button>
          </Group>
        </Stack>
      </Modal>
    );
  }

  return (
    <Modal opened={opened} onClose={close} title="Adicionar cartão" centered closeOnClickOutside={false}>
      <form onSubmit={(event) => void submit(event)} noValidate autoComplete="on">
        <Stack>
          {problem && (
            <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
              {problem}
            </Alert>
          )}
          <TextInput
            label="Número do cartão"
            placeholder="0000 0000 0000 0000"
            inputMode="numeric"
            autoComplete="cc-number"
            value={input.number}
            onChange={set('number')}
            maxLength={23}
            withAsterisk
            data-autofocus
          />
          <TextInput label="Nome impresso no cartão" autoComplete="cc-name" value={input.holder} onChange={set('holder')} maxLength={64} withAsterisk />
          <SimpleGrid cols={2}>
            <TextInput label="Validade" placeholder="MM/AA" inputMode="numeric" autoComplete="cc-exp" value={input.expiry} onChange={set('expiry')} maxLength={7} withAsterisk />
            <TextInput label="CVV" placeholder="123" inputMode="numeric" autoComplete="cc-csc" value={input.cvv} onChange={set('cvv')} maxLength={4} withAsterisk />
          </SimpleGrid>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <IconLock size={16} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
            <Text size="xs" c="dimmed">
              Os dados do cartão vão direto do seu navegador para o provedor de pagamento ({PROVIDER_NAMES[tokenizer.provider]}). O Sentinela guarda apenas a bandeira, os 4
              últimos dígitos, o titular e a validade.
            </Text>
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={busy}>
              Cancelar
            </Button>
            <Button type="submit" loading={busy}>
              Salvar cartão
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
