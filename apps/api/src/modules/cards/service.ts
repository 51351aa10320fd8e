import { CARD_MESSAGES, type AddCardBody, type CardListResponse, type PaymentCard } from '@sentinela/contract';
import type { CardProviderConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { JobLog } from '../../jobs/job-queue';
import type { Clock } from '../../lib/clock';
import { AppError, badRequest, notFound } from '../../lib/errors';
import type { AuthContext } from '../../plugins/auth';
import { CardProviderError, PagarmeClient, type PagarmeCard } from './pagarme-client';

type CardRow = { id: string; brand: string; last4: string; holder: string; exp_month: number; exp_year: number; is_main: boolean };

const toCard = (row: CardRow): PaymentCard => ({
  id: row.id,
  brand: row.brand,
  last4: row.last4,
  holder: row.holder,
  exp_month: row.exp_month,
  exp_year: row.exp_year,
  main: row.is_main,
});

const CARD_COLUMNS = ['id', 'brand', 'last4', 'holder', 'exp_month', 'exp_year', 'is_main'] as const;

/**
 * An enterprise's payment cards, stored at the payment provider (issue 13 item 4, ADR 31). Here only the provider's
 * card id and what may be shown are kept. Exactly one card of an enterprise is the main one once it has any: the
 * first added becomes it, "Tornar Principal" moves it, and removing it hands it to the oldest remaining card.
 */
export class CardService {
  private readonly client: PagarmeClient | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly provider: CardProviderConfig | undefined,
    private readonly log: JobLog,
  ) {
    this.client = provider ? new PagarmeClient(provider) : undefined;
  }

  /** The enterprise a call is about: the caller's own; the super admin must name one (that exists). */
  private async enterpriseOf(auth: AuthContext, requested: string | undefined): Promise<string> {
    if (auth.scope.kind === 'all') {
      if (!requested) throw badRequest(CARD_MESSAGES.enterpriseRequired);
      const found = await this.db.selectFrom('enterprises').select('id').where('id', '=', requested).executeTakeFirst();
      if (!found) throw notFound(CARD_MESSAGES.enterpriseNotFound);
      return requested;
    }
    const own = auth.scope.enterpriseId;
    if (!own) throw badRequest(CARD_MESSAGES.noEnterprise);
    if (requested && requested !== own) throw notFound(CARD_MESSAGES.enterpriseNotFound);
    return own;
  }

  /** One card within the caller's reach; another enterprise's id is a 404, as one that does not exist. */
  private async scopedCard(auth: AuthContext, id: string) {
    let query = this.db.selectFrom('payment_cards').select(['id', 'enterprise_id', 'provider', 'provider_card_id', 'is_main']).where('id', '=', id);
    if (auth.scope.kind !== 'all') {
      if (!auth.scope.enterpriseId) throw notFound(CARD_MESSAGES.cardNotFound);
      query = query.where('enterprise_id', '=', auth.scope.enterpriseId);
    }
    const card = await query.executeTakeFirst();
    if (!card) throw notFound(CARD_MESSAGES.cardNotFound);
    return card;
  }

  async list(auth: AuthContext, requestedEnterprise: string | undefined): Promise<CardListResponse> {
    const enterpriseId = await this.enterpriseOf(auth, requestedEnterprise);
    const rows = await this.db
      .selectFrom('payment_cards')
      .select(CARD_COLUMNS)
      .where('enterprise_id', '=', enterpriseId)
      .orderBy('is_main', 'desc')
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return {
      data: rows.map(toCard),
      tokenizer: this.provider && this.client ? { provider: this.provider.name, public_key: this.provider.publicKey, token_url: this.client.tokenUrl() } : null,
    };
  }

  /** Turns the browser's one-use token into a card stored at the provider, then keeps what may be shown of it. */
  async add(auth: AuthContext, body: AddCardBody): Promise<PaymentCard> {
    const enterpriseId = await this.enterpriseOf(auth, body.enterprise_id);
    const client = this.client;
    if (!client || !this.provider) throw new AppError('CONFLICT', CARD_MESSAGES.notConfigured);
    const provider = this.provider.name;

    const customerId = await this.customerOf(client, enterpriseId, auth.userId);
    const stored = await this.atProvider(() => client.createCard(customerId, body.token), enterpriseId);
    try {
      return await this.db.transaction().execute(async (trx) => {
        // The first card is the main one; later ones wait for "Tornar Principal". The lock keeps two cards added at
        // once from both seeing "no main card yet".
        await trx.selectFrom('enterprises').select('id').where('id', '=', enterpriseId).forUpdate().executeTakeFirst();
        const main = await trx.selectFrom('payment_cards').select('id').where('enterprise_id', '=', enterpriseId).where('is_main', '=', true).executeTakeFirst();
        const row = await trx
          .insertInto('payment_cards')
          .values({
            enterprise_id: enterpriseId,
            provider,
            provider_card_id: stored.id,
            brand: stored.brand,
            last4: stored.last_four_digits,
            holder: (stored.holder_name ?? '').trim().slice(0, 200),
            exp_month: stored.exp_month,
            exp_year: stored.exp_year,
            is_main: !main,
            created_at: this.clock.now(),
          })
          .onConflict((oc) => oc.columns(['provider', 'provider_card_id']).doNothing())
          .returning(CARD_COLUMNS)
          .executeTakeFirst();
        // Pagar.me answers the same card for a token sent twice (idempotency key): the card is already here.
        if (!row) {
          const existing = await trx.selectFrom('payment_cards').select(CARD_COLUMNS).where('provider', '=', provider).where('provider_card_id', '=', stored.id).where('enterprise_id', '=', enterpriseId).executeTakeFirst();
          if (!existing) throw notFound(CARD_MESSAGES.cardNotFound);
          return toCard(existing);
        }
        return toCard(row);
      });
    } catch (error) {
      // Nothing kept here: the card must not stay stored at the provider either.
      await this.forget(client, customerId, stored, enterpriseId);
      throw error;
    }
  }

  /** "Tornar Principal": this card becomes the enterprise's only main card. */
  async makeMain(auth: AuthContext, id: string): Promise<PaymentCard> {
    const card = await this.scopedCard(auth, id);
    return this.db.transaction().execute(async (trx) => {
      await trx.updateTable('payment_cards').set({ is_main: false }).where('enterprise_id', '=', card.enterprise_id).where('is_main', '=', true).where('id', '<>', id).execute();
      const row = await trx.updateTable('payment_cards').set({ is_main: true }).where('id', '=', id).returning(CARD_COLUMNS).executeTakeFirst();
      if (!row) throw notFound(CARD_MESSAGES.cardNotFound);
      return toCard(row);
    });
  }

  /** Removes the card at the provider, then here; a main card hands the flag to the oldest remaining one. */
  async remove(auth: AuthContext, id: string): Promise<void> {
    const card = await this.scopedCard(auth, id);
    const customer = await this.db
      .selectFrom('payment_customers')
      .select('customer_id')
      .where('enterprise_id', '=', card.enterprise_id)
      .where('provider', '=', card.provider)
      .executeTakeFirst();
    const client = this.client;
    // A card of a provider this server no longer speaks to cannot be removed there: kept rather than lost track of.
    if (!client || this.provider?.name !== card.provider) throw new AppError('CONFLICT', CARD_MESSAGES.notConfigured);
    if (customer) {
      try {
        await client.deleteCard(customer.customer_id, card.provider_card_id);
      } catch (error) {
        // Already gone there (removed at the provider's dashboard): removed here too.
        if (!(error instanceof CardProviderError && error.kind === 'not_found')) throw this.providerFailure(error, card.enterprise_id);
      }
    }
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('payment_cards').where('id', '=', id).execute();
      if (!card.is_main) return;
      const next = await trx.selectFrom('payment_cards').select('id').where('enterprise_id', '=', card.enterprise_id).orderBy('created_at', 'asc').orderBy('id', 'asc').limit(1).executeTakeFirst();
      if (next) await trx.updateTable('payment_cards').set({ is_main: true }).where('id', '=', next.id).execute();
    });
  }

  /** The provider's customer of the enterprise, created with its first card. */
  private async customerOf(client: PagarmeClient, enterpriseId: string, userId: string): Promise<string> {
    const provider = this.provider!.name;
    const known = await this.db.selectFrom('payment_customers').select('customer_id').where('enterprise_id', '=', enterpriseId).where('provider', '=', provider).executeTakeFirst();
    if (known) return known.customer_id;
    const enterprise = await this.db.selectFrom('enterprises').select(['name', 'email']).where('id', '=', enterpriseId).executeTakeFirstOrThrow();
    const user = await this.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
    const customerId = await this.atProvider(
      () => client.createCustomer({ name: enterprise.name, email: enterprise.email || user?.email || null, code: enterpriseId }),
      enterpriseId,
    );
    await this.db
      .insertInto('payment_customers')
      .values({ enterprise_id: enterpriseId, provider, customer_id: customerId, created_at: this.clock.now() })
      .onConflict((oc) => oc.columns(['enterprise_id', 'provider']).doNothing())
      .execute();
    const kept = await this.db.selectFrom('payment_customers').select('customer_id').where('enterprise_id', '=', enterpriseId).where('provider', '=', provider).executeTakeFirstOrThrow();
    return kept.customer_id;
  }

  private async atProvider<T>(call: () => Promise<T>, enterpriseId: string): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw this.providerFailure(error, enterpriseId);
    }
  }

  /** The provider's refusal in pt-BR: a refused token or card is the user's to fix (422), the rest is a 502. */
  private providerFailure(error: unknown, enterpriseId: string): Error {
    if (!(error instanceof CardProviderError)) return error instanceof Error ? error : new Error(String(error));
    this.log.warn({ enterpriseId, status: error.status, kind: error.kind, providerMessage: error.providerMessage }, 'card provider refused a call');
    if (error.kind === 'token') return new AppError('UNPROCESSABLE', CARD_MESSAGES.tokenRefused);
    if (error.kind === 'declined') return new AppError('UNPROCESSABLE', CARD_MESSAGES.declined);
    return new AppError('BAD_GATEWAY', CARD_MESSAGES.providerUnavailable);
  }

  private async forget(client: PagarmeClient, customerId: string, stored: PagarmeCard, enterpriseId: string): Promise<void> {
    try {
      await client.deleteCard(customerId, stored.id);
    } catch (error) {
      this.log.error({ enterpriseId, providerCardId: stored.id, err: error }, 'a card stored at the provider could not be removed after it was refused here');
    }
  }
}
