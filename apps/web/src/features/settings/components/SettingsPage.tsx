import { Anchor, Badge, Button, Group, Stack, Switch, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG, NOTIFICATION_CHANNEL_NAMES, Profile, type NotificationChannelStatus } from '@sentinela/contract';
import { IconBrandTelegram } from '@tabler/icons-react';
import { Link } from 'react-router';
import { SettingsSection, SettingsValues } from '../../../components/SettingsSection';
import { errorMessage } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { useNotificationSettings, useToggleChannel, useUnlinkTelegram } from '../api/notification-channels';
import { PushChannelRow } from './PushChannelRow';
import '../styles';
import { AlarmEscalationSection } from './AlarmEscalationSection';
import { ComplianceSection } from './ComplianceSection';
import { RetentionSection } from './RetentionSection';

/**
 * /settings, Configurações (A10): "Por onde deseja receber notificações?" with a toggle per channel. A channel this
 * user cannot use yet is shown off and disabled, with why and what enables it (the server refuses it too).
 */
export function SettingsPage() {
  const settings = useNotificationSettings();
  // Reminders and escalation are the enterprise's: its administrators set them (ADR 24).
  const isEnterpriseAdmin = useSession()?.user.profile._id === Profile.EnterpriseAdmin;
  return (
    <Stack maw={720}>
      <Title order={2}>Configurações</Title>
      <SettingsSection title="Por onde deseja receber notificações?">
        <SettingsValues query={settings}>
          {(values) => (
            <>
              {values.channels.map((status) =>
                status.channel === 'push' ? <PushChannelRow key={status.channel} status={status} /> : <ChannelRow key={status.channel} status={status} />,
              )}
              {values.telegram.linked && <TelegramLinked />}
            </>
          )}
        </SettingsValues>
      </SettingsSection>
      {isEnterpriseAdmin && <AlarmEscalationSection />}
      {isEnterpriseAdmin && <ComplianceSection />}
      {isEnterpriseAdmin && <RetentionSection />}
    </Stack>
  );
}

function ChannelRow({ status }: { status: NotificationChannelStatus }) {
  const toggle = useToggleChannel();
  const name = NOTIFICATION_CHANNEL_NAMES[status.channel];
  const onChange = (on: boolean) =>
    toggle.mutate(
      { channel: status.channel, on },
      { onError: (error) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, MSG.internalError) }) },
    );
  // An "on" channel that became unusable (e.g. Telegram unlinked elsewhere) can still be turned off.
  const locked = !status.available && !status.enabled;
  const why =
    !status.available && status.reason ? (
      <>
        {status.reason}{' '}
        {status.action &&
          (status.action.href.startsWith('/') ? (
            <Anchor component={Link} to={status.action.href} inherit>
              {status.action.label}
            </Anchor>
          ) : (
            <Anchor href={status.action.href} target="_blank" rel="noopener noreferrer" inherit>
              {status.action.label}
            </Anchor>
          ))}
      </>
    ) : undefined;
  return (
    <Switch
      label={name}
      description={why}
      checked={status.enabled}
      disabled={locked || toggle.isPending}
      onChange={(event) => onChange(event.currentTarget.checked)}
    />
  );
}

function TelegramLinked() {
  const unlink = useUnlinkTelegram();
  return (
    <Group justify="space-between" wrap="wrap">
      <Group gap="xs">
        <IconBrandTelegram size={18} />
        <Badge color="teal" variant="light">
          Telegram vinculado
        </Badge>
      </Group>
      <Button
        variant="default"
        size="xs"
        loading={unlink.isPending}
        onClick={() =>
          unlink.mutate(undefined, {
            onSuccess: (answer) => notifications.show({ color: 'teal', title: 'Sucesso!', message: answer.message }),
            onError: (error) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, MSG.internalError) }),
          })
        }
      >
        Desvincular
      </Button>
    </Group>
  );
}
