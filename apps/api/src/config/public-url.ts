import type { AddressInfo } from 'node:net';
import type { AppConfig } from './config';

/**
 * The URL of a listen address (ADR 69): a wildcard address (0.0.0.0, ::) is reached as localhost on this machine; an
 * IPv6 address is bracketed.
 */
export function listenUrl(host: string, port: number): string {
  const wildcard = host === '' || host === '0.0.0.0' || host === '::' || host === '[::]';
  const name = wildcard ? 'localhost' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/**
 * Once the server listens: without PUBLIC_URL, links in e-mails, monitor links and gateway instructions name the
 * address it listens on, with the port it got (PORT=0 picks one). Services read `config.publicUrl` at each use.
 * Returns the listen URL.
 */
export function adoptListenAddress(config: AppConfig, address: AddressInfo | string | null): string {
  const port = address && typeof address === 'object' ? address.port : config.port;
  const url = listenUrl(config.host, port);
  if (config.publicUrlFromListen) config.publicUrl = url;
  return url;
}
