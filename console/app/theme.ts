import { readPreference, writePreference } from '../i18n/locale.ts';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

const STORE = 'rf-console-theme';

export function initialTheme(): Theme {
  const saved = readPreference(STORE);
  return (THEMES as readonly string[]).includes(saved ?? '') ? (saved as Theme) : 'system';
}

/** Pins the colour scheme on <html> (console.css reads it); `system` follows prefers-color-scheme. */
export function applyTheme(theme: Theme): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  writePreference(STORE, theme);
}
