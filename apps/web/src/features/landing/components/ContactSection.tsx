import { Text } from '@mantine/core';

/** Contato (A14): the form with human verification arrives with POST /api/contact-us. */
export function ContactSection() {
  return (
    <Text ta="center" c="dimmed">
      Quer conhecer o Sentinela? Cadastre-se e comece a monitorar seus sensores hoje mesmo.
    </Text>
  );
}
