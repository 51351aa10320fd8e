import { z } from 'zod';

// Every validation message the API or the web client shows is in Portuguese (Brazil).
// A missing field reads "Campo obrigatório." rather than zod's generic type message.
z.config(z.locales.ptBR());
z.config({
  customError: (issue) => {
    if (issue.code === 'invalid_type' && issue.input === undefined) return 'Campo obrigatório.';
    return undefined;
  },
});

export { z };
