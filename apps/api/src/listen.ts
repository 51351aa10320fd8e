import type { FastifyInstance } from 'fastify';

/**
 * Opens the port once the app is ready and its one-time work is done. The OpenAPI document takes 1–2 s of CPU to
 * build: built here, before the first connection is accepted, no request waits for it — neither the first
 * /api/docs nor whatever arrives while it is built (after listening it would block the event loop with
 * connections already waiting, and load shedding would refuse the next ones). Exempting the reference's routes
 * from load shedding instead would let the one request that builds it through exactly when the server is
 * overloaded. Building it in every app's ready instead would charge each test file for it.
 */
export async function listenWarm(app: FastifyInstance, address: { port: number; host: string }): Promise<string> {
  await app.ready();
  app.openapiDocument.build();
  return app.listen(address);
}
