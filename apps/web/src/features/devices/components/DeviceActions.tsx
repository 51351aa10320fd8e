import { Button } from '@mantine/core';
import type { Device } from '@sentinela/contract';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import type { DeviceHistoryState } from './DevicesTable';

/** A device's "Ações" (D1, D2): Alterar Nome for who may rename, and Histórico with the name for the screen's header. */
export function DeviceActions({ device, onRename }: { device: Device; onRename: ((device: Device) => void) | null }) {
  return (
    <>
      {onRename && (
        <Button size="xs" variant="light" onClick={() => onRename(device)}>
          Alterar Nome
        </Button>
      )}
      <Button
        size="xs"
        variant="default"
        component={Link}
        to={paths.deviceHistory(device.mac, device._id)}
        state={{ name: device.name, model: device.model } satisfies DeviceHistoryState}
      >
        Histórico
      </Button>
    </>
  );
}
