import { describe, expect, it } from 'vitest';
import { csvCurlExample, tokenCurlExample } from './examples';

describe('X13 token examples', () => {
  const token = `stk_${'a'.repeat(43)}`;

  it('calls the export for a token that reads readings, with this server’s address', () => {
    expect(tokenCurlExample('https://sentinela.example', token, ['devices:read', 'readings:read'])).toBe(
      `curl -sS "https://sentinela.example/api/readings?limit=100" \\\n  -H 'Authorization: Bearer ${token}'`,
    );
  });

  it('picks a call the token may make', () => {
    expect(tokenCurlExample('http://localhost:3000', token, ['alarms:read'])).toContain('http://localhost:3000/api/alarms/open');
    expect(tokenCurlExample('http://localhost:3000', token, ['travels:write'])).toContain("-X POST http://localhost:3000/api/travels/<id da viagem>/status");
    expect(tokenCurlExample('http://localhost:3000', token, ['reports:read'])).toContain('/api/reports \\');
  });

  it('asks for CSV with the Accept header', () => {
    expect(csvCurlExample('http://localhost:3000', token)).toContain("-H 'Accept: text/csv'");
  });
});
