import { css } from 'lit';

/** How the console's dialogs look (confirmations, the keys help); each page sets their width. */
export const dialogStyles = css`
  dialog {
    background: var(--c-bg);
    color: var(--c-fg);
    border: 1px solid var(--c-border);
    border-radius: var(--c-radius);
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 0.4);
  }
`;
