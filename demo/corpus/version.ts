import { createHash } from 'node:crypto';

/** A short content hash: the same text always gets the same version, and an edit a new one. */
export const contentVersion = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 12);
