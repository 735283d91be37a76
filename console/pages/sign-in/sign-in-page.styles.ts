import { css } from 'lit';

export const styles = css`
  :host {
    max-width: 32rem;
    margin: 3rem auto;
  }
  form {
    display: grid;
    gap: 0.5rem;
  }
  input {
    font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
  }
  .error:empty {
    display: none;
  }
`;
