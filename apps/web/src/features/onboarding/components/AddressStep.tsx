import '@mantine/core/styles/Combobox.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Loader, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { ADDRESS_MESSAGES, BRAZIL_UFS, EnterpriseAddressBody, MSG, type z } from '@sentinela/contract';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { errorMessage } from '../../../lib/api-client';
import { lookupCep } from '../api/cep-lookup';
import { useEnterpriseAddress, useSaveEnterpriseAddress } from '../api/enterprise-address';

type AddressForm = z.input<typeof EnterpriseAddressBody>;

const maskCep = (value: string) => {
  const digits = value.replace(/\D/g, '').slice(0, 8);
  return digits.length > 5 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : digits;
};

/**
 * Step 2: the enterprise's address. Once the CEP has 8 digits, the server looks it up and fills the street,
 * neighbourhood, city, UF and the (hidden) IBGE code; the number is the user's. Salvar stores it on the enterprise.
 */
export function AddressStep({ onBack, onNext }: { onBack: () => void; onNext: () => void }) {
  const saved = useEnterpriseAddress();
  const save = useSaveEnterpriseAddress();
  const [lookup, setLookup] = useState<{ state: 'idle' | 'loading' | 'error'; message?: string }>({ state: 'idle' });
  const lastLooked = useRef<string>('');
  const {
    register,
    handleSubmit,
    setValue,
    reset,
    control,
    formState: { errors },
  } = useForm<AddressForm>({
    resolver: zodResolver(EnterpriseAddressBody),
    defaultValues: { cep: '', number: '', address: '', neighbourhood: '', city: '', uf: '', ibge: '' },
  });

  useEffect(() => {
    if (saved.data) reset({ ...saved.data, cep: maskCep(saved.data.cep), ibge: saved.data.ibge ?? '' });
  }, [saved.data, reset]);

  const cep = useWatch({ control, name: 'cep' });
  useEffect(() => {
    const digits = cep.replace(/\D/g, '');
    // The documents' rule: the lookup starts at 8 characters.
    if (digits.length < 8 || digits === lastLooked.current) return;
    lastLooked.current = digits;
    const controller = new AbortController();
    setLookup({ state: 'loading' });
    lookupCep(digits, controller.signal)
      .then((found) => {
        const options = { shouldValidate: true, shouldDirty: true };
        setValue('address', found.logradouro, options);
        setValue('neighbourhood', found.bairro, options);
        setValue('city', found.localidade, options);
        setValue('uf', found.uf, options);
        setValue('ibge', found.ibge);
        setLookup({ state: 'idle' });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        lastLooked.current = '';
        setLookup({ state: 'error', message: errorMessage(error, ADDRESS_MESSAGES.cepUnavailable) });
      });
    return () => controller.abort();
  }, [cep, setValue]);

  const onSubmit = handleSubmit((form) => save.mutate(EnterpriseAddressBody.parse(form)));

  if (saved.isPending) return <Loader aria-label="Carregando" />;
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Endereço da empresa">
      <Stack mt="md">
        {save.isSuccess && (
          <Alert color="green" title="Sucesso!" icon={<IconCircleCheck />}>
            {save.data.message}
          </Alert>
        )}
        {(save.isError || saved.isError) && (
          <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
            {errorMessage(save.error ?? saved.error, MSG.internalError)}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label="CEP"
            withAsterisk
            inputMode="numeric"
            autoComplete="postal-code"
            placeholder="00000-000"
            rightSection={lookup.state === 'loading' ? <Loader size="xs" aria-label="Buscando CEP" /> : null}
            error={errors.cep?.message ?? (lookup.state === 'error' ? lookup.message : undefined)}
            {...register('cep', {
              onChange: (event: { target: HTMLInputElement }) => {
                event.target.value = maskCep(event.target.value);
              },
            })}
          />
          <TextInput label="Número" withAsterisk error={errors.number?.message} {...register('number')} />
          <Controller
            control={control}
            name="uf"
            render={({ field }) => (
              <Select label="UF" withAsterisk data={[...BRAZIL_UFS]} searchable value={field.value || null} onChange={(v) => field.onChange(v ?? '')} error={errors.uf?.message} />
            )}
          />
        </SimpleGrid>
        <TextInput label="Endereço" withAsterisk autoComplete="address-line1" error={errors.address?.message} {...register('address')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Bairro" withAsterisk error={errors.neighbourhood?.message} {...register('neighbourhood')} />
          <TextInput label="Cidade" withAsterisk autoComplete="address-level2" error={errors.city?.message} {...register('city')} />
        </SimpleGrid>
        <input type="hidden" {...register('ibge')} />
        <Group justify="space-between">
          <Button variant="default" onClick={onBack}>
            Voltar
          </Button>
          <Group gap="xs">
            <Button type="submit" loading={save.isPending}>
              Salvar
            </Button>
            <Button variant="light" onClick={onNext}>
              Próximo
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
