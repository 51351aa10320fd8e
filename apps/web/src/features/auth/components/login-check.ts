import { zodResolver } from '@hookform/resolvers/zod';
import { LoginBody } from '@sentinela/contract';

/** The login form's check: the contract's schema, as the server applies it. Loaded apart from the page (ADR 0040). */
export const loginResolver = zodResolver(LoginBody);
