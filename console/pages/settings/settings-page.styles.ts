import { css } from 'lit';

export const styles = css`
  .settings {
    display: grid;
    gap: 0.9rem;
    max-width: 40rem;
  }
  .settings + .card {
    margin-top: 1rem;
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
    max-width: 30rem;
  }
`;
