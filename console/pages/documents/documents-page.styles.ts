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
  .owners td:last-child {
    white-space: nowrap;
  }
  .actions {
    display: flex;
    gap: 0.5rem;
    align-items: center;
    margin-top: 0.5rem;
  }
`;
