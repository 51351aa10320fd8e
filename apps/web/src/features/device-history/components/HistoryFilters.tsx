import { Button, Group, NumberInput, Paper, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import {
  filterToForm,
  formToFilter,
  type FilterErrors,
  type FilterFormValues,
  type HistoryFilterState,
} from '../filter';
import type { NumberField } from '../../../lib/number-field';

interface HistoryFiltersProps {
  /** The applied filter; the form starts from it (remount with a key to reset). */
  filter: HistoryFilterState;
  onApply: (filter: HistoryFilterState) => void;
}

const numberFields = [
  { key: 'minTemp', label: 'Temperatura mínima (°C)' },
  { key: 'maxTemp', label: 'Temperatura máxima (°C)' },
  { key: 'minHum', label: 'Umidade mínima (%)' },
  { key: 'maxHum', label: 'Umidade máxima (%)' },
] as const;

/** The history filter form of the Dados and Gráfico tabs (D3). */
export function HistoryFilters({ filter, onApply }: HistoryFiltersProps) {
  const [values, setValues] = useState<FilterFormValues>(() => filterToForm(filter));
  const [errors, setErrors] = useState<FilterErrors>({});

  const set = <K extends keyof FilterFormValues>(key: K, value: FilterFormValues[K]) => {
    setValues((previous) => ({ ...previous, [key]: value }));
    setErrors((previous) => ({ ...previous, [key]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = formToFilter(values, new Date());
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    onApply(result.filter);
  };

  return (
    <Paper withBorder p="sm" radius="md" component="form" onSubmit={submit} noValidate aria-label="Filtros">
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
        {numberFields.map(({ key, label }) => (
          <NumberInput
            key={key}
            label={label}
            value={values[key]}
            onChange={(value: NumberField) => set(key, value)}
            decimalSeparator=","
            decimalScale={2}
            allowNegative
            hideControls
            inputMode="decimal"
            error={errors[key]}
          />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="xs" mt="xs">
        <TextInput
          type="datetime-local"
          label="Data inicial"
          value={values.dateInit}
          onChange={(event) => set('dateInit', event.currentTarget.value)}
          error={errors.dateInit}
        />
        <TextInput
          type="datetime-local"
          label="Data final"
          value={values.dateEnd}
          onChange={(event) => set('dateEnd', event.currentTarget.value)}
          error={errors.dateEnd}
        />
      </SimpleGrid>
      <Group justify="space-between" align="center" mt="sm" gap="sm">
        <Switch
          label="Filtrar data em UTC?"
          onLabel="Sim"
          offLabel="Não"
          size="lg"
          checked={values.isUtc}
          onChange={(event) => set('isUtc', event.currentTarget.checked)}
        />
        <Button type="submit" leftSection={<IconFilter size={16} />}>
          Filtrar
        </Button>
      </Group>
    </Paper>
  );
}
