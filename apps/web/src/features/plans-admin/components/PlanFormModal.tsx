import '@mantine/core/styles/Checkbox.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Checkbox, Group, Modal, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG, PLAN_ADMIN_MESSAGES, PLAN_FEATURES_MAX, type AdminPlan } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../../lib/api-client';
import { useSavePlan } from '../api/plans-admin';
import { emptyPlanForm, formToBody, PlanFormSchema, planToForm, type PlanFormValues } from './plan-form';

interface PlanFormModalProps {
  opened: boolean;
  /** The plan edited; null creates one. */
  plan: AdminPlan | null;
  onClose: () => void;
}

/** "Novo plano" / "Editar plano": closes only by its buttons (a half-typed plan is not lost by a click outside). */
export function PlanFormModal({ opened, plan, onClose }: PlanFormModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={plan ? 'Editar plano' : 'Novo plano'}
      closeOnClickOutside={false}
      closeOnEscape={false}
      withCloseButton={false}
      centered
      size="lg"
    >
      {opened && <PlanForm key={plan?._id ?? 'new'} plan={plan} onClose={onClose} />}
    </Modal>
  );
}

export function PlanForm({ plan, onClose }: { plan: AdminPlan | null; onClose: () => void }) {
  const save = useSavePlan();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<PlanFormValues>({ resolver: zodResolver(PlanFormSchema), defaultValues: plan ? planToForm(plan) : emptyPlanForm });

  const onSubmit = handleSubmit((values) =>
    save.mutate(
      { id: plan?._id ?? null, body: formToBody(values) },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', title: MSG.successTitle, message: plan ? PLAN_ADMIN_MESSAGES.updated : PLAN_ADMIN_MESSAGES.created });
          onClose();
        },
      },
    ),
  );

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        {save.isError && (
          <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
            {errorMessage(save.error, 'Não foi possível salvar o plano.')}
          </Alert>
        )}
        <TextInput label="Nome do plano" withAsterisk maxLength={60} data-autofocus error={errors.name?.message} {...register('name')} />
        <TextInput
          label="Limite de dispositivos"
          description="Quantos dispositivos uma empresa neste plano pode ter. Em branco: sem limite."
          inputMode="numeric"
          error={errors.max_devices?.message}
          {...register('max_devices')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <Stack gap={6}>
            <Checkbox label="Mensal" error={errors.monthly?.message} {...register('monthly')} />
            <TextInput
              aria-label="Valor mensal (R$)"
              placeholder="Valor por mês, ex.: 149,90"
              leftSection="R$"
              inputMode="decimal"
              error={errors.monthlyValue?.message}
              {...register('monthlyValue')}
            />
          </Stack>
          <Stack gap={6}>
            <Checkbox label="Anual" {...register('annual')} />
            <TextInput
              aria-label="Valor anual (R$)"
              placeholder="Valor por ano, ex.: 1529,00"
              leftSection="R$"
              inputMode="decimal"
              error={errors.annualValue?.message}
              {...register('annualValue')}
            />
          </Stack>
        </SimpleGrid>
        <Textarea
          label="Recursos"
          description={`Um por linha, até ${PLAN_FEATURES_MAX}. Aparecem nos cartões do plano, nos dois ciclos.`}
          rows={5}
          error={errors.features?.message}
          {...register('features')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            Cancelar
          </Button>
          <Button type="submit" loading={save.isPending}>
            Salvar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
