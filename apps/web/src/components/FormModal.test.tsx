import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { FormModal } from './FormModal';

function modal(overrides: Partial<React.ComponentProps<typeof FormModal>> = {}) {
  const props = { opened: true, title: 'Novo item', onClose: vi.fn(), onSubmit: vi.fn((e: React.FormEvent) => e.preventDefault()), submitLabel: 'Criar', pending: false, error: null, ...overrides };
  renderWithProviders(
    <FormModal {...props}>
      <input aria-label="Nome" />
    </FormModal>,
  );
  return props;
}

describe('FormModal', () => {
  it('submits by its button and closes only by Cancelar: no close button, Escape does nothing', async () => {
    const props = modal();
    const dialog = await screen.findByRole('dialog', { name: 'Novo item' });
    expect(screen.queryByRole('button', { name: /fechar|close/i })).toBeNull();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(props.onClose).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Criar' }));
    expect(props.onSubmit).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(props.onClose).toHaveBeenCalledTimes(1);
  });

  it('shows the error above the fields, and keeps Cancelar waiting while the request is on its way', async () => {
    modal({ error: 'Não foi possível criar o item.', pending: true });
    await screen.findByRole('dialog', { name: 'Novo item' });
    expect(screen.getByText('Não foi possível criar o item.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Cancelar' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('once done, shows what it was given under its own title instead of the form', async () => {
    modal({ done: <p>Chave: abc</p>, doneTitle: 'Item criado' });
    await screen.findByRole('dialog', { name: 'Item criado' });
    expect(screen.getByText('Chave: abc')).toBeTruthy();
    expect(screen.queryByLabelText('Nome')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Criar' })).toBeNull();
  });
});
