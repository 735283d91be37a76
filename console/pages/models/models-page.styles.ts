import { css } from 'lit';

export const styles = css`
  .serving {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
    align-items: center;
  }
  .serving p {
    margin: 0;
  }
  .status:empty {
    display: none;
  }
  .model,
  .history {
    margin-bottom: 1rem;
  }
  .model header {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
    margin-bottom: 0.25rem;
  }
  .model h2 {
    margin: 0;
  }
  .spacer {
    flex: 1;
  }
  .badge {
    border: 1px solid currentColor;
    border-radius: 999px;
    padding: 0 0.5rem;
    font-size: 0.85rem;
  }
  .badge.served,
  .badge.promoted {
    color: var(--c-good);
  }
  .badge.rejected {
    color: var(--c-bad);
  }
  .reasons {
    margin-bottom: 0.75rem;
  }
  caption {
    text-align: start;
    color: var(--c-muted);
    padding-bottom: 0.25rem;
  }
  td {
    font-variant-numeric: tabular-nums;
  }
  .warn {
    color: var(--c-warn);
  }
  dialog {
    max-width: 32rem;
  }
  dialog input {
    display: block;
    width: 100%;
    box-sizing: border-box;
    margin: 0.25rem 0 0.75rem;
  }
  .actions {
    display: flex;
    gap: 0.5rem;
    justify-content: end;
  }
`;
