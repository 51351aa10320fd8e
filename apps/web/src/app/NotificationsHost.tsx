// The toasts' component and styles load after the first paint (ADR 0040): `notifications.show` only writes to
// @mantine/notifications' store, which this host renders once it has loaded, so a toast shown before keeps waiting.
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

import classes from './NotificationsHost.module.css';

export function NotificationsHost() {
  return <Notifications position="top-right" classNames={classes} />;
}
