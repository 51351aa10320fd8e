import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeServer } from './fake-map-services';

/** Postal codes the local service knows; any other 8-digit code is unknown ({"erro": true}), as ViaCEP answers. */
export const KNOWN_CEPS: Record<string, { cep: string; logradouro: string; bairro: string; localidade: string; uf: string; ibge: string }> = {
  '01310100': { cep: '01310-100', logradouro: 'Avenida Paulista', bairro: 'Bela Vista', localidade: 'São Paulo', uf: 'SP', ibge: '3550308' },
};

/** A ViaCEP-compatible server on 127.0.0.1 (GET /ws/{cep}/json/), the product's CEP_LOOKUP_URL in the e2e run. */
export async function startCepServer(): Promise<FakeServer> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests += 1;
    const match = /^\/ws\/(\d{8})\/json\/$/.exec(req.url ?? '');
    if (!match) {
      res.writeHead(400, { 'content-type': 'text/html' }).end('<h1>Bad Request</h1>');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(KNOWN_CEPS[match[1]!] ?? { erro: true }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ws`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
