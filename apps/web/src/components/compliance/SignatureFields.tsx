import { Alert, PasswordInput, Select, Stack, Text } from '@mantine/core';
import { SIGNATURE_MEANINGS, type SignatureMeaning } from '@sentinela/contract';
import { IconSignature } from '@tabler/icons-react';

export interface SignatureValue {
  password: string;
  meaning: SignatureMeaning | null;
}

export const EMPTY_SIGNATURE: SignatureValue = { password: '', meaning: null };

/**
 * An electronic signature's fields (21 CFR 11.50/11.200, ADR 0062): the signer's password typed again and the meaning
 * of the signature, with what signing means said before the button.
 */
export function SignatureFields({ value, onChange, signerName }: { value: SignatureValue; onChange: (value: SignatureValue) => void; signerName: string }) {
  return (
    <Stack gap="xs" data-testid="signature-fields">
      <Alert color="blue" variant="light" icon={<IconSignature />} title="Assinatura eletrônica">
        <Text size="sm">
          Ao assinar, {signerName} declara o significado escolhido. A assinatura (nome, usuário, data e hora, significado) fica vinculada a este
          registro e na trilha de auditoria.
        </Text>
      </Alert>
      <Select
        label="Significado da assinatura"
        placeholder="Escolha"
        withAsterisk
        data={[...SIGNATURE_MEANINGS]}
        value={value.meaning}
        onChange={(meaning) => onChange({ ...value, meaning: (meaning as SignatureMeaning | null) ?? null })}
        allowDeselect={false}
        comboboxProps={{ withinPortal: false }}
      />
      <PasswordInput
        label="Sua senha"
        withAsterisk
        autoComplete="current-password"
        value={value.password}
        onChange={(event) => onChange({ ...value, password: event.currentTarget.value })}
      />
    </Stack>
  );
}
