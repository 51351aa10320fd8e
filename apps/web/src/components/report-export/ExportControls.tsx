import '@mantine/core/styles/Menu.css';
import { Button, Group, Menu, Text } from '@mantine/core';
import { IconChevronDown, IconFileSpreadsheet, IconFileTypePdf, IconReport } from '@tabler/icons-react';
import type { ExportFormat, ExportTarget } from './request-export';
import { useReportExport } from './export-provider';

export const EXPORT_FORMATS: readonly { format: ExportFormat; label: string; icon: typeof IconFileTypePdf }[] = [
  { format: 'pdf', label: 'PDF', icon: IconFileTypePdf },
  { format: 'excel', label: 'Excel', icon: IconFileSpreadsheet },
];

/** PDF and Excel buttons side by side, after a label (device history, Dados and Gráfico tabs). */
export function ExportButtons({ target, label }: { target: ExportTarget; label?: string }) {
  const reports = useReportExport();
  if (!reports) return null;
  const { exportReport, isExporting } = reports;
  return (
    <Group gap="xs" justify="flex-end" data-testid="export-buttons">
      {label && (
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      )}
      {/* The two buttons stay together when the label wraps on a phone. */}
      <Group gap="xs" wrap="nowrap">
        {EXPORT_FORMATS.map(({ format, label: buttonLabel, icon: Icon }) => (
          <Button
            key={format}
            variant="light"
            leftSection={<Icon size={16} />}
            loading={isExporting(target, format)}
            onClick={() => void exportReport(target, format)}
          >
            {buttonLabel}
          </Button>
        ))}
      </Group>
    </Group>
  );
}

/** A "Gerar Relatórios" dropdown with PDF and Excel (travel history tab). */
export function ExportMenu({ target, label = 'Gerar Relatórios' }: { target: ExportTarget; label?: string }) {
  const reports = useReportExport();
  if (!reports) return null;
  const { exportReport, isExporting } = reports;
  const busy = EXPORT_FORMATS.some(({ format }) => isExporting(target, format));
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <Button variant="light" leftSection={<IconReport size={16} />} rightSection={<IconChevronDown size={14} />} loading={busy}>
          {label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {EXPORT_FORMATS.map(({ format, label: itemLabel, icon: Icon }) => (
          <Menu.Item key={format} leftSection={<Icon size={16} />} onClick={() => void exportReport(target, format)}>
            {itemLabel}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
