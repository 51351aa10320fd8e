import { ADDRESS_MESSAGES, type CepLookupResponse } from '@sentinela/contract';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import type { OutgoingClient } from '../../lib/outgoing/outgoing-client';

const CACHE_MS = 24 * 60 * 60 * 1000;
const CACHE_MAX_ENTRIES = 5000;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * Postal codes looked up at a ViaCEP-compatible service (`{root}/{cep}/json/`, A4). Answers, found or not, are kept a
 * day (addresses of a CEP rarely change, and the public service asks callers not to repeat themselves); a service
 * that is slow, down or answers nonsense gives a 503 the form can live with, and is asked again next time.
 */
export class CepLookup {
  private readonly cache = new Map<string, { at: number; value: CepLookupResponse | null }>();

  constructor(
    private readonly root: string,
    private readonly timeoutMs: number,
    private readonly clock: Clock,
    private readonly outgoing: OutgoingClient,
  ) {}

  async lookup(cep: string): Promise<CepLookupResponse> {
    const now = this.clock.now().getTime();
    const cached = this.cache.get(cep);
    const value = cached && now - cached.at < CACHE_MS ? cached.value : await this.ask(cep, now);
    if (!value) throw notFound(ADDRESS_MESSAGES.cepNotFound);
    return value;
  }

  private async ask(cep: string, now: number): Promise<CepLookupResponse | null> {
    const unavailable = () => new AppError('SERVICE_UNAVAILABLE', ADDRESS_MESSAGES.cepUnavailable);
    let body: unknown;
    try {
      // CEP_LOOKUP_URL is the operator's (trusted as an address); the client bounds time and size, refuses redirects.
      const response = await this.outgoing.request(`${this.root}/${cep}/json/`, { trust: 'operator', timeoutMs: this.timeoutMs, maxResponseBytes: 64 * 1024, headers: { accept: 'application/json' } });
      // ViaCEP answers 400 to a malformed code; ours are 8 digits, so a 400 means the service disagrees: not found.
      if (response.status === 400 || response.status === 404) return this.remember(cep, now, null);
      if (!response.ok) throw unavailable();
      body = response.json();
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw unavailable();
    }
    if (!body || typeof body !== 'object') throw unavailable();
    const answer = body as Record<string, unknown>;
    // An unknown CEP is {"erro": true} (older versions: "true").
    if (answer.erro === true || answer.erro === 'true') return this.remember(cep, now, null);
    const found: CepLookupResponse = {
      cep: text(answer.cep) || `${cep.slice(0, 5)}-${cep.slice(5)}`,
      logradouro: text(answer.logradouro),
      bairro: text(answer.bairro),
      localidade: text(answer.localidade),
      uf: text(answer.uf).toUpperCase(),
      ibge: text(answer.ibge),
    };
    if (!found.localidade || !/^[A-Z]{2}$/.test(found.uf)) throw unavailable();
    return this.remember(cep, now, found);
  }

  private remember(cep: string, now: number, value: CepLookupResponse | null) {
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(cep, { at: now, value });
    return value;
  }
}
