import { css } from 'lit';

export const styles = css`
  .settings {
    display: grid;
    gap: 0.9rem;
    max-width: 40rem;
  }
  .field {
    display: grid;
    gap: 0.2rem;
  }
  .field input {
    max-width: 10rem;
  }
  .field .error:empty {
    display: none;
  }
  .actions {
    display: flex;
    gap: 0.5rem;
    align-items: center;
  }
  button.danger {
    background: var(--c-bad);
    border-color: var(--c-bad);
    color: var(--c-on-accent);
  }
  dialog {
    background: var(--c-bg);
    color: var(--c-fg);
    border: 1px solid var(--c-border);
    border-radius: var(--c-radius);
    max-width: 30rem;
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 0.4);
  }
`;
