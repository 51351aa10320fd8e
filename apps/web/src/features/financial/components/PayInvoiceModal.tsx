import { Button, Group, Modal, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG, type Invoice } from '@sentinela/contract';
import { useCallback } from 'react';
import { PixPayment } from '../../../components/PixPayment';

interface PayInvoiceModalProps {
  invoice: Pick<Invoice, 'id' | 'number'> | null;
  onClose: () => void;
}

/**
 * "Pagar Fatura": the invoice's PIX code and QR code. It stays open until its button closes it (the payer is copying
 * a code or scanning); once the PSP's webhook has paid the invoice, it says so and the lists drop the button (ADR 30).
 */
export function PayInvoiceModal({ invoice, onClose }: PayInvoiceModalProps) {
  const onPaid = useCallback(
    (paid: Invoice) => notifications.show({ color: 'teal', title: MSG.successTitle, message: `Pagamento da fatura nº ${paid.number} confirmado.` }),
    [],
  );
  return (
    <Modal
      opened={invoice !== null}
      onClose={onClose}
      title="Pagar Fatura"
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
    >
      {invoice && (
        <Stack>
          <PixPayment invoiceId={invoice.id} onPaid={onPaid} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Fechar
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
