import { css } from 'lit';

export const styles = css`
  .owners {
    margin-top: 1rem;
  }
  .owners input {
    width: 100%;
    box-sizing: border-box;
  }
  .owners td .error {
    display: block;
  }
  /* A rule's buttons stay side by side; the empty table's sentence wraps to the window. */
  .owners td.rule-actions {
    white-space: nowrap;
  }
  .theirs {
    margin-top: 0.75rem;
  }
  .theirs ol {
    margin: 0.25rem 0 0;
  }
  .actions {
    display: flex;
    gap: 0.5rem;
    align-items: center;
    margin-top: 0.5rem;
  }
`;
