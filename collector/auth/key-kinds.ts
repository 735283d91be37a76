/** The kinds of API key a project has: which endpoints each may call is decided by `requireKey`. */
export const KEY_KINDS = ['write', 'server', 'admin', 'viewer'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];
