import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { ACCOUNT_MESSAGES, CONTACT_MESSAGES, MSG, SignUpForm } from '@sentinela/contract';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { PhoneInput } from '../../../components/form/PhoneInput';
import { HumanCheckWidget } from '../../../components/HumanCheckWidget';
import { errorMessage } from '../../../lib/api-client';
import { isEmailAvailable } from '../../../lib/email-availability';
import { paths } from '../../../lib/paths';
import { SIGN_UP_CHALLENGE_URL, useSignUp } from '../api/accounts';
import { AuthCard } from './AuthCard';

const PASSWORD_HINT = 'No mínimo 8 caracteres, com letras, números e um destes caracteres especiais: @$!%*#?&';

/**
 * /register (A3): the registrant and their company; the plan chosen on the landing page comes in the query.
 * Cadastrar waits for the "not a robot" proof of work, as the contact form does (issue 21 item 5).
 */
export function RegisterPage() {
  const [query] = useSearchParams();
  const signUp = useSignUp();
  // A new widget (a new challenge) after each attempt: an answer is single use.
  const [round, setRound] = useState(0);
  const [token, setToken] = useState<string | null>(null);
  const [checkMissing, setCheckMissing] = useState(false);
  const [emailTaken, setEmailTaken] = useState(false);
  const [checking, setChecking] = useState(false);
  const [checkError, setCheckError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignUpForm>({
    resolver: zodResolver(SignUpForm),
    defaultValues: { name: '', username: '', email: '', phone: '', clientName: '', password: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(async ({ clientName, confirmPassword: _confirm, ...person }) => {
    // The form's own rules first (handleSubmit), then the check: the registrant sees every field to fix at once.
    if (!token) {
      setCheckMissing(true);
      return;
    }
    setCheckMissing(false);
    setEmailTaken(false);
    setCheckError(null);
    setChecking(true);
    try {
      // The documents check the e-mail first; the server checks it again when creating the account.
      if (!(await isEmailAvailable(person.email))) {
        setEmailTaken(true);
        return;
      }
    } catch (error) {
      setCheckError(errorMessage(error, MSG.internalError));
      return;
    } finally {
      setChecking(false);
    }
    const planId = query.get('plan_id');
    const cycleId = query.get('cicle_id');
    signUp.mutate(
      { ...person, client: { name: clientName }, altcha: token, ...(planId && cycleId ? { plan_id: planId, cicle_id: cycleId } : {}) },
      {
        onSettled: () => {
          setToken(null);
          setRound((n) => n + 1);
        },
      },
    );
  });

  if (signUp.isSuccess) {
    return (
      <AuthCardShell>
        <Alert color="green" title={ACCOUNT_MESSAGES.registered} icon={<IconCircleCheck />}>
          Enviamos um link de confirmação para o seu e-mail. Você já pode entrar; confirme o e-mail para concluir o
          cadastro.
        </Alert>
        {/* After signing in, the registrant continues at /complete-register (address, plan). */}
        <Button component={Link} to={paths.login} state={{ from: paths.completeRegister }}>
          {ACCOUNT_MESSAGES.goToLogin}
        </Button>
      </AuthCardShell>
    );
  }

  const failure = emailTaken ? MSG.emailTaken : checkError ?? (signUp.isError ? errorMessage(signUp.error, MSG.internalError) : null);
  return (
    <AuthCardShell>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {failure && (
            <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
              {failure}
            </Alert>
          )}
          <Text size="sm" c="dimmed">
            Crie a conta da sua empresa. Campos com * são obrigatórios.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Nome" withAsterisk autoComplete="name" error={errors.name?.message} {...register('name')} />
            <TextInput label="Usuário" withAsterisk autoComplete="username" error={errors.username?.message} {...register('username')} />
            <TextInput label="Email" type="email" withAsterisk autoComplete="email" error={errors.email?.message} {...register('email')} />
            <PhoneInput label="Telefone" withAsterisk error={errors.phone?.message} {...register('phone')} />
          </SimpleGrid>
          <TextInput label="Nome da empresa" withAsterisk autoComplete="organization" error={errors.clientName?.message} {...register('clientName')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <PasswordInput label="Senha" withAsterisk autoComplete="new-password" error={errors.password?.message} {...register('password')} />
            <PasswordInput
              label="Confirmar Senha"
              withAsterisk
              autoComplete="new-password"
              error={errors.confirmPassword?.message}
              {...register('confirmPassword')}
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {PASSWORD_HINT}
          </Text>
          <HumanCheckWidget key={round} challengeUrl={SIGN_UP_CHALLENGE_URL} onToken={setToken} />
          {!token && (
            <Text size="xs" c={checkMissing ? 'red' : 'dimmed'} role={checkMissing ? 'alert' : undefined}>
              {CONTACT_MESSAGES.checkRequired}
            </Text>
          )}
          <Group justify="space-between">
            <Button component={Link} to={paths.login} variant="default">
              Voltar
            </Button>
            <Button type="submit" loading={checking || signUp.isPending}>
              Cadastrar
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthCardShell>
  );
}

function AuthCardShell({ children }: { children: ReactNode }) {
  return (
    <AuthCard title="Cadastre-se" width={640}>
      {children}
    </AuthCard>
  );
}
