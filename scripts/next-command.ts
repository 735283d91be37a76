/**
 * The command a tool tells the user to run next, carrying the options that chose this run's
 * collector and project: followed as printed, it must reach the same ones, not the local default.
 */

/** Where a command reaches when given nothing: `npm start`'s collector on its default port, in a fresh shell. */
const DEFAULT_ENDPOINT = 'http://127.0.0.1:8787';

/** A word as a POSIX shell reads it back unchanged. */
export const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

export interface CollectorChoice {
  endpoint: string;
  /**
   * Whether this run's key came from a flag or the environment rather than the dev project: the
   * next command needs one too. It is said as a placeholder, never printed back.
   */
  keyGiven: boolean;
}

/**
 * `npm run <script> -- <flags>`: `--endpoint` unless it is the default one (a PORT or RF_ENDPOINT
 * given inline is gone in the next command), `--admin-key <admin key>` when a key was given,
 * then `more` (other flags this run was given that the next one needs too).
 */
export function nextCommand(script: string, { endpoint, keyGiven }: CollectorChoice, more: string[] = []): string {
  const flags = [
    ...(endpoint === DEFAULT_ENDPOINT ? [] : ['--endpoint', shellWord(endpoint)]),
    ...(keyGiven ? ['--admin-key', '<admin key>'] : []),
    ...more.map(shellWord),
  ];
  return `npm run ${script}${flags.length ? ` -- ${flags.join(' ')}` : ''}`;
}
