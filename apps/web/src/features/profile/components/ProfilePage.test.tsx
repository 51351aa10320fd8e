import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PROFILE_MESSAGES } from '@sentinela/contract';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../../lib/session';
import { jsonResponse, mockFetch } from '../../../test/fetch';
import { makeSession } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';

const PROFILE = { name: 'Maria Souza', username: 'maria', email: 'maria@example.com', phone: '(11) 98765-4321', verified: true, pending_email: null };
const TAKEN = 'ocupado@example.com';

function open() {
  startSession(makeSession(3));
  const mock = mockFetch((request) => {
    const { pathname } = new URL(request.url, 'http://localhost');
    if (pathname === '/api/profile') return jsonResponse(PROFILE);
    // The documents' answer: truthy when some account has the e-mail.
    if (pathname === '/api/user/email-available') return jsonResponse((request.body as { email: string }).email === TAKEN);
    if (pathname === '/api/profile/' && request.method === 'POST') return jsonResponse({ success: true, message: PROFILE_MESSAGES.emailChanged });
    return jsonResponse([]);
  });
  return { ...mock, ...renderApp('/profile') };
}

async function changeEmail(to: string) {
  const email = (await screen.findByLabelText(/Email/)) as HTMLInputElement;
  await userEvent.clear(email);
  await userEvent.type(email, to);
  await userEvent.type(await screen.findByLabelText(/Senha atual/), 'Senha-atual-1');
  await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
}

describe('/profile "Editar Perfil" (A7)', () => {
  it('checks a new e-mail first, as the documents do: a taken one blocks the save with their message', async () => {
    const { requests } = open();
    await changeEmail(TAKEN);
    expect(await screen.findByText('Email já cadastrado no sistema.')).toBeTruthy();
    expect(requests.filter((r) => r.url.includes('/api/user/email-available')).map((r) => r.body)).toEqual([{ email: TAKEN }]);
    expect(requests.some((r) => r.method === 'POST' && new URL(r.url, 'http://localhost').pathname === '/api/profile/')).toBe(false);
  });

  it('a free e-mail is checked, then saved with the current password', async () => {
    const { requests } = open();
    await changeEmail('nova@example.com');
    expect(await screen.findByText(PROFILE_MESSAGES.emailChanged)).toBeTruthy();
    const save = requests.find((r) => r.method === 'POST' && new URL(r.url, 'http://localhost').pathname === '/api/profile/');
    expect(save?.body).toMatchObject({ email: 'nova@example.com', current_password: 'Senha-atual-1' });
  });
});
