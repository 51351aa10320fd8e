import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Badge, Button, CopyButton, Group, Paper, SegmentedControl, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { TRACKING_SCOPE_LABELS, TrackingScope, z, type Travel } from '@sentinela/contract';
import { IconCheck, IconCopy, IconLinkOff, IconRefresh } from '@tabler/icons-react';
import { dayjs } from '../../../lib/dayjs';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatInteger } from '../../../lib/format';
import { travelKeys } from '../api/keys';
import { useTrackingLink } from '../api/tracking-link';
import { TRACKING_MESSAGES as M, TRAVEL_MESSAGES } from '../messages';

/** The state of a link as its managers read it. */
export function linkState(travel: Travel, now: number = Date.now()): 'active' | 'revoked' | 'expired' {
  if (travel.tracking.revoked_at) return 'revoked';
  if (travel.tracking.expires_at && Date.parse(travel.tracking.expires_at) <= now) return 'expired';
  return 'active';
}

const STATE = {
  active: { label: 'Ativo', color: 'teal' },
  revoked: { label: 'Revogado', color: 'red' },
  expired: { label: 'Expirado', color: 'gray' },
} as const;

/** The address a code holder opens (the Localizador with the code in it). */
export const trackingUrl = (code: string) => `${window.location.origin}/localizator?cod=${encodeURIComponent(code)}`;

/**
 * The tracking link of a travel (ADR 36), below its summary on the Dispositivos tab: the link, its state, what it
 * shows, until when, and how often it was looked up. Managers change the scope and expiry, revoke it, or replace
 * the code (the old one stops working at once).
 */
export function TrackingLinkPanel({ travel, canManage }: { travel: Travel; canManage: boolean }) {
  const state = linkState(travel);
  const { tracking } = travel;
  // Lookups are not pushed live (they are not travel changes): the managers ask for the newest count.
  const queryClient = useQueryClient();
  const [refreshing, setRefreshing] = useState(false);
  // The mutation lives here, not in ManageLink: ManageLink is keyed by the saved settings so its form starts from
  // them again, and a keyed child that remounts on success would drop the callbacks of its own mutate call.
  const link = useTrackingLink(travel._id);
  const refresh = () => {
    setRefreshing(true);
    void queryClient.invalidateQueries({ queryKey: travelKeys.detail(travel._id) }).finally(() => setRefreshing(false));
  };
  return (
    <Paper withBorder p="md" radius="md" data-testid="tracking-link">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={4}>Link de rastreamento</Title>
          <Badge color={STATE[state].color} variant="light" data-testid="tracking-state">
            {STATE[state].label}
          </Badge>
        </Group>
        <Group gap={4} wrap="nowrap" align="center">
          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }} c={state === 'active' ? undefined : 'dimmed'} data-testid="tracking-url">
            {trackingUrl(travel.code)}
          </Text>
          <CopyButton value={trackingUrl(travel.code)}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copiado' : 'Copiar link'}>
                <ActionIcon variant="subtle" onClick={copy} aria-label="Copiar link">
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
        <Text size="sm">
          <Text span fw={600}>
            Mostra:{' '}
          </Text>
          {TRACKING_SCOPE_LABELS[tracking.scope]}
        </Text>
        <Text size="sm">
          <Text span fw={600}>
            Validade:{' '}
          </Text>
          {tracking.revoked_at
            ? `revogado em ${formatDateTime(tracking.revoked_at)}`
            : tracking.expires_at
              ? `${state === 'expired' ? 'expirou em' : 'até'} ${formatDateTime(tracking.expires_at)}${tracking.expires_at_chosen ? '' : ' (prazo padrão após o fim da viagem)'}`
              : M.expiresAfterEnd}
        </Text>
        <Group gap={4} wrap="nowrap" align="center">
          <Text size="sm" data-testid="tracking-lookups">
            <Text span fw={600}>
              Consultas:{' '}
            </Text>
            {tracking.lookups ? `${formatInteger(tracking.lookups)} · última em ${formatDateTime(tracking.last_lookup_at)}` : M.noLookups}
          </Text>
          <Tooltip label="Atualizar consultas">
            <ActionIcon variant="subtle" size="sm" aria-label="Atualizar consultas" loading={refreshing} onClick={refresh}>
              <IconRefresh size={14} />
            </ActionIcon>
          </Tooltip>
        </Group>
        {canManage && <ManageLink key={`${travel.code}|${tracking.scope}|${tracking.expires_at_chosen ?? ''}`} travel={travel} state={state} link={link} />}
      </Stack>
    </Paper>
  );
}

const LinkForm = z.object({
  scope: TrackingScope,
  expires: z.string().refine((v) => v === '' || dayjs(v).isValid(), { message: M.invalidDate }),
});
type LinkFormValues = z.infer<typeof LinkForm>;

const localInput = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DDTHH:mm') : '');

function ManageLink({ travel, state, link }: { travel: Travel; state: ReturnType<typeof linkState>; link: ReturnType<typeof useTrackingLink> }) {
  const [confirm, setConfirm] = useState<'revoke' | 'regenerate' | null>(null);
  const {
    control,
    register,
    handleSubmit,
    formState: { errors, isDirty },
  } = useForm<LinkFormValues>({
    resolver: zodResolver(LinkForm),
    defaultValues: { scope: travel.tracking.scope, expires: localInput(travel.tracking.expires_at_chosen) },
  });

  const done = (message: string) => () => {
    setConfirm(null);
    notifications.show({ color: 'teal', title: TRAVEL_MESSAGES.successTitle, message });
  };
  const failed = (error: unknown) => {
    setConfirm(null);
    notifications.show({ color: 'red', title: TRAVEL_MESSAGES.errorTitle, message: errorMessage(error, M.saveError) });
  };

  const onSubmit = handleSubmit((form) =>
    link.mutate(
      { kind: 'settings', body: { scope: form.scope, expires_at: form.expires === '' ? null : dayjs(form.expires).toISOString() } },
      { onSuccess: done(M.saved), onError: failed },
    ),
  );

  return (
    <Stack gap="sm" mt="xs">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Controller
            control={control}
            name="scope"
            render={({ field }) => (
              <Stack gap={4}>
                <Text size="sm" fw={500} id="tracking-scope-label">
                  O que o link mostra
                </Text>
                <SegmentedControl
                  aria-labelledby="tracking-scope-label"
                  fullWidth
                  value={field.value}
                  onChange={(value) => field.onChange(value)}
                  data={TrackingScope.options.map((value) => ({ value, label: TRACKING_SCOPE_LABELS[value] }))}
                />
              </Stack>
            )}
          />
          <TextInput
            type="datetime-local"
            label="Válido até"
            description={M.expiryHelp}
            error={errors.expires?.message}
            {...register('expires')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={link.isPending && link.variables?.kind === 'settings'} disabled={!isDirty}>
              Salvar link
            </Button>
          </Group>
        </Stack>
      </form>
      <Group gap="sm" wrap="wrap">
        <Button variant="light" color="red" leftSection={<IconLinkOff size={16} />} disabled={state === 'revoked'} onClick={() => setConfirm('revoke')}>
          Revogar link
        </Button>
        <Button variant="light" leftSection={<IconRefresh size={16} />} onClick={() => setConfirm('regenerate')}>
          Gerar novo código
        </Button>
      </Group>
      <ConfirmModal
        opened={confirm === 'revoke'}
        title="Revogar link"
        confirmLabel="Revogar"
        danger
        loading={link.isPending}
        onClose={() => setConfirm(null)}
        onConfirm={() => link.mutate({ kind: 'revoke' }, { onSuccess: done(M.revoked), onError: failed })}
      >
        {M.revokeQuestion}
      </ConfirmModal>
      <ConfirmModal
        opened={confirm === 'regenerate'}
        title="Gerar novo código"
        confirmLabel="Gerar novo código"
        loading={link.isPending}
        onClose={() => setConfirm(null)}
        onConfirm={() => link.mutate({ kind: 'regenerate' }, { onSuccess: done(M.regenerated), onError: failed })}
      >
        {M.regenerateQuestion}
      </ConfirmModal>
    </Stack>
  );
}
