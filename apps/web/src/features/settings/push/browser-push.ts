/**
 * This browser's side of web push (ADR 22): the service worker (/sw.js), the permission, and the subscription to
 * the browser's push service made with the server's VAPID key. Every failure is a PushSetupError whose message,
 * in pt-BR, says what the user can do.
 */
export class PushSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PushSetupError';
  }
}

export const PUSH_TEXT = {
  unsupported: 'Este navegador não oferece notificações push. Use um navegador atual (Chrome, Edge, Firefox ou Safari) para recebê-las.',
  insecure: 'As notificações push só funcionam com o site aberto em HTTPS.',
  denied: 'As notificações estão bloqueadas para este site. Permita as notificações nas configurações do navegador (ícone ao lado do endereço) e tente de novo.',
  dismissed: 'Você não permitiu as notificações. Tente de novo e escolha "Permitir" quando o navegador perguntar.',
  /** The push service of the browser (Google's, Mozilla's, Apple's) could not be reached or refused. */
  serviceUnreachable:
    'O serviço de notificações do navegador não respondeu. Ele precisa de acesso à internet: confira a conexão e tente de novo mais tarde, ou use outro navegador.',
  workerFailed: 'Não foi possível instalar neste navegador o serviço de notificações do site. Recarregue a página e tente de novo.',
  keyRefused: 'O navegador não aceitou a chave de notificações deste servidor. Avise o responsável pela plataforma.',
  /** Anything else: the browser's own message is in English and means nothing to the user. */
  generic: 'Não foi possível ativar as notificações push neste navegador. Tente de novo mais tarde ou use outro navegador.',
} as const;

/**
 * What a failure of the browser's push APIs means for the user, in pt-BR: the known DOMException names of
 * PushManager.subscribe and ServiceWorkerContainer.register, a generic text otherwise. Never the browser's own
 * (English) message, such as Chrome's "Registration failed - push service error".
 */
export function pushFailureText(error: unknown): string {
  const name = error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error) ? String((error as { name: unknown }).name) : '';
  switch (name) {
    case 'NotAllowedError':
      return PUSH_TEXT.denied;
    case 'NotSupportedError':
      return PUSH_TEXT.unsupported;
    case 'InvalidAccessError':
      return PUSH_TEXT.keyRefused;
    case 'AbortError':
    case 'NetworkError':
    case 'TimeoutError':
      return PUSH_TEXT.serviceUnreachable;
    case 'SecurityError':
    case 'InvalidStateError':
    case 'TypeError':
      return PUSH_TEXT.workerFailed;
    default:
      return PUSH_TEXT.generic;
  }
}

const SERVICE_WORKER = '/sw.js';

/** Why this browser cannot receive push at all, or null when it can. */
export function pushUnavailableReason(): string | null {
  if (typeof window === 'undefined' || !('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return window.isSecureContext === false ? PUSH_TEXT.insecure : PUSH_TEXT.unsupported;
  }
  if (!window.isSecureContext) return PUSH_TEXT.insecure;
  return null;
}

/** This browser's current push subscription, if any (without asking anything). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (pushUnavailableReason()) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function sameKey(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/**
 * Asks the permission (when not granted yet), registers the service worker and subscribes this browser to its push
 * service with the server's key; answers the subscription as the server takes it (PushSubscription.toJSON()).
 */
export async function subscribeThisBrowser(vapidPublicKey: string): Promise<PushSubscriptionJSON> {
  const unavailable = pushUnavailableReason();
  if (unavailable) throw new PushSetupError(unavailable);
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission === 'denied') throw new PushSetupError(PUSH_TEXT.denied);
  if (permission !== 'granted') throw new PushSetupError(PUSH_TEXT.dismissed);
  try {
    await navigator.serviceWorker.register(SERVICE_WORKER, { scope: '/' });
    const registration = await navigator.serviceWorker.ready;
    const key = keyBytes(vapidPublicKey);
    const existing = await registration.pushManager.getSubscription();
    // A subscription made with another key (the server's keys were replaced) cannot carry this server's messages.
    if (existing && !sameKey(existing.options.applicationServerKey, key)) await existing.unsubscribe();
    const subscription = (existing && sameKey(existing.options.applicationServerKey, key) ? existing : null) ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
    return subscription.toJSON();
  } catch (error) {
    throw new PushSetupError(pushFailureText(error));
  }
}

/** Ends this browser's subscription with its push service; answers the endpoint it had, or null. */
export async function unsubscribeThisBrowser(): Promise<string | null> {
  const subscription = await currentSubscription();
  if (!subscription) return null;
  const endpoint = subscription.endpoint;
  await subscription.unsubscribe();
  return endpoint;
}
