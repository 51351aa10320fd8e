import { Anchor, Button, Group, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { paths, returnPath } from '../../../lib/paths';
import { useSessionExpiredNotice } from '../../../lib/session';
import type { Authenticated } from '../api/sign-in';
import { loadSignIn, useSignIn } from '../api/use-sign-in';
import type { LoginField } from './login-check';

// zod, the login schema and the sign-in calls are not needed to paint the form: they load when the user starts
// typing (or submits), so /login's first load stays small. For the same reason this two-field form keeps its own
// state instead of react-hook-form's (~13 kB gzip); it checks with the contract's schema all the same, on submit and,
// after a first submit, on each change, as the other forms do (issue 15 item 5, ADR 0040).
const loadLoginCheck = () => import('./login-check');
const LoginError = lazy(() => import('./LoginError').then((module) => ({ default: module.LoginError })));
const SessionExpiredNotice = lazy(() => import('./SessionExpiredNotice').then((module) => ({ default: module.SessionExpiredNotice })));
function preloadSignIn() {
  void loadLoginCheck();
  void loadSignIn();
}

function valuesOf(form: HTMLFormElement): Record<LoginField, string> {
  const data = new FormData(form);
  return { username: String(data.get('username') ?? ''), password: String(data.get('password') ?? '') };
}

interface LoginPageProps {
  /**
   * Runs as soon as the credentials are accepted, with the path the user is about to be sent to: the app starts that
   * screen's code and data there, beside the sign-in's last call (ADR 0086).
   */
  onAuthenticated?: (authenticated: Authenticated, destination: string) => void;
}

/** /login (A2). */
export function LoginPage({ onAuthenticated }: LoginPageProps = {}) {
  const navigate = useNavigate();
  const { state } = useLocation();
  const destination = returnPath(state);
  const signIn = useSignIn(onAuthenticated && ((authenticated) => onAuthenticated(authenticated, destination)));
  const [errors, setErrors] = useState<Partial<Record<LoginField, string>>>({});
  const [submitted, setSubmitted] = useState(false);
  const expired = useSessionExpiredNotice();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setSubmitted(true);
    const check = (await loadLoginCheck()).checkLogin(valuesOf(form));
    setErrors(check.errors ?? {});
    if (check.errors) {
      const first = (['username', 'password'] as const).find((field) => check.errors[field]);
      if (first) (form.elements.namedItem(first) as HTMLInputElement | null)?.focus();
      return;
    }
    signIn.mutate(check.credentials, { onSuccess: () => void navigate(destination, { replace: true }) });
  };
  const onInput = async (event: FormEvent<HTMLFormElement>) => {
    preloadSignIn();
    if (!submitted) return;
    const form = event.currentTarget;
    setErrors((await loadLoginCheck()).checkLogin(valuesOf(form)).errors ?? {});
  };

  return (
    <Paper withBorder shadow="sm" radius="md" p="xl" maw={420} mx="auto" mt="xl">
      <form onSubmit={(event) => void onSubmit(event)} onInput={(event) => void onInput(event)} noValidate>
        <Stack>
          <Title order={2} ta="center">
            Entrar
          </Title>
          {expired && !signIn.isError && (
            <Suspense fallback={null}>
              <SessionExpiredNotice />
            </Suspense>
          )}
          {signIn.isError && (
            <Suspense fallback={null}>
              <LoginError error={signIn.error} />
            </Suspense>
          )}
          <TextInput
            label="Usuário"
            autoComplete="username"
            autoFocus
            name="username"
            error={errors.username}
          />
          <PasswordInput
            label="Senha"
            autoComplete="current-password"
            name="password"
            error={errors.password}
          />
          <Button type="submit" loading={signIn.isPending} fullWidth>
            Entrar
          </Button>
          <Group justify="space-between">
            <Anchor component={Link} to={paths.forgotPassword} size="sm">
              Esqueci minha senha
            </Anchor>
            <Anchor component={Link} to={paths.reportValidator} size="sm">
              Validar relatório
            </Anchor>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
