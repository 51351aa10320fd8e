import { Button, Stack, Switch, Text } from '@mantine/core';
import { MSG, NOTIFICATION_CHANNEL_NAMES, type NotificationChannelStatus } from '@sentinela/contract';
import { errorMessage } from '../../../lib/api-client';
import { useDisablePush, useEnablePush, usePushSubscriptions, useThisBrowserEndpoint } from '../api/push-subscriptions';
import { PushSetupError, pushUnavailableReason } from '../push/browser-push';

/**
 * The push toggle (ADR 22). Turning it on from a browser not subscribed yet asks the permission, subscribes this
 * browser and then turns the channel on; a refusal or a browser without push is said plainly, never shown as on.
 */
export function PushChannelRow({ status }: { status: NotificationChannelStatus }) {
  const unsupported = pushUnavailableReason();
  const subscriptions = usePushSubscriptions();
  const thisEndpoint = useThisBrowserEndpoint(!unsupported);
  const enable = useEnablePush();
  const disable = useDisablePush();
  const pending = enable.isPending || disable.isPending;
  const subscribedHere = !!thisEndpoint.data && !!subscriptions.data?.some((s) => s.endpoint === thisEndpoint.data);
  const failure = enable.error ?? disable.error;
  const failureText = failure ? (failure instanceof PushSetupError ? failure.message : errorMessage(failure, MSG.internalError)) : null;

  const onChange = (on: boolean) => {
    enable.reset();
    disable.reset();
    if (on) enable.mutate();
    else disable.mutate();
  };

  let why: string | null = null;
  if (unsupported) why = unsupported;
  else if (!status.available) why = status.reason;
  else if (status.enabled && subscriptions.isSuccess && thisEndpoint.isSuccess && !subscribedHere) {
    why = 'As notificações push chegam aos navegadores onde você as ativou; este navegador não está entre eles.';
  }
  const offerHere = !unsupported && !subscribedHere && (status.enabled || !status.available);

  return (
    <Stack gap={4} id="push">
      <Switch
        label={NOTIFICATION_CHANNEL_NAMES.push}
        description={why ?? undefined}
        checked={status.enabled}
        // A browser without push can still turn off a channel that other browsers receive.
        disabled={pending || (!!unsupported && !status.enabled)}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
      {offerHere && (
        <Button variant="light" size="xs" w="fit-content" ml={50} loading={enable.isPending} disabled={pending} onClick={() => onChange(true)}>
          {status.action?.label ?? 'Ativar neste navegador'}
        </Button>
      )}
      {failureText && (
        <Text c="red" size="sm" ml={50} role="alert">
          {failureText}
        </Text>
      )}
    </Stack>
  );
}
