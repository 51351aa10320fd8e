import { describe, expect, it } from 'vitest';
import './zod-without-eval';
import { z } from 'zod';

describe('zod without eval (ADR 0014, ADR 0040)', () => {
  it('zod reads the setting the entry writes before zod loads', () => {
    expect(z.config().jitless).toBe(true);
  });
});
