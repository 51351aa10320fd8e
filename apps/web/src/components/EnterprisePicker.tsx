import '@mantine/core/styles/Combobox.css';
import { Select } from '@mantine/core';
import { EnterpriseSummary, Profile, z } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { apiRequest } from '../lib/api-client';
import { useRequiredSession } from '../lib/session';

export const enterprisesKeys = {
  all: ['enterprises'] as const,
  list: ['enterprises', 'list'] as const,
  detail: (id: string) => ['enterprises', 'detail', id] as const,
};

const EnterpriseList = z.array(EnterpriseSummary);

/** GET /api/client-all: every enterprise (super admin). */
export function enterprisesQueryOptions() {
  return queryOptions({
    queryKey: enterprisesKeys.list,
    queryFn: ({ signal }) => apiRequest('/api/client-all', { schema: EnterpriseList, signal }),
  });
}

export function useEnterprises(enabled = true) {
  return useQuery({ ...enterprisesQueryOptions(), enabled });
}

/**
 * The enterprise a per-enterprise screen shows: `?id=` when given, else the signed-in user's own enterprise.
 * Only the super admin, who belongs to none, chooses one (and the choice is kept in the URL).
 */
export function useChosenEnterprise() {
  const { user, enterprise } = useRequiredSession();
  const [searchParams, setSearchParams] = useSearchParams();
  const canChoose = user.profile._id === Profile.SuperAdmin;
  const clientId = searchParams.get('id') || (canChoose ? null : enterprise._id);

  const choose = useCallback(
    (id: string | null) =>
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          if (id) next.set('id', id);
          else next.delete('id');
          // Values that belonged to the previous enterprise.
          next.delete('numDevices');
          return next;
        },
        { replace: true },
      ),
    [setSearchParams],
  );

  return { clientId, canChoose, choose };
}

interface EnterprisePickerProps {
  value: string | null;
  onChange: (id: string | null) => void;
  /** Lets the choice be cleared, with this placeholder for none (e.g. "Todas as empresas"). */
  clearablePlaceholder?: string;
}

/** A searchable list of every enterprise, for the super admin's per-enterprise screens. */
export function EnterprisePicker({ value, onChange, clearablePlaceholder }: EnterprisePickerProps) {
  const enterprises = useEnterprises();
  const data = (enterprises.data ?? []).map((e) => ({ value: e._id, label: e.disabled ? `${e.name} (inativa)` : e.name }));

  return (
    <Select
      label="Empresa"
      placeholder={enterprises.isPending ? 'Carregando...' : (clearablePlaceholder ?? 'Selecione uma empresa')}
      clearable={clearablePlaceholder !== undefined}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      nothingFoundMessage="Nada encontrado..."
      error={enterprises.isError ? 'Não foi possível carregar as empresas.' : undefined}
      disabled={enterprises.isPending}
      maw={420}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
