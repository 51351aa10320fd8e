import { sql, type Kysely } from 'kysely';

/**
 * Signed invoice PDFs (issue 13 item 5, ADR 30): each download is rendered and signed like a report, and the SHA-256
 * of its bytes is recorded here so the report validator (/report/validator) recognises the file as this platform's.
 * The file itself is not kept: it can be made again from the invoice.
 */
const statements = [
  `CREATE TABLE invoice_documents (
     id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
     invoice_id uuid NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
     sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
     generated_at timestamptz NOT NULL,
     generated_by uuid REFERENCES users(id) ON DELETE SET NULL
   )`,
  `CREATE INDEX invoice_documents_sha256_idx ON invoice_documents (sha256)`,
  `CREATE INDEX invoice_documents_invoice_idx ON invoice_documents (invoice_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
