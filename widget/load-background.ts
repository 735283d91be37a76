import { retrying } from './retrying.ts';

/**
 * The background chunk (recorder with outbox and transport, web vitals, query similarity, the
 * popover and prompts): one loader for every part that needs it.
 */
export const loadBackground = retrying(() => import('./background.ts'));
