import { css } from 'lit';

export const styles = css`
  :host {
    min-height: 100vh;
  }
  .skip {
    position: absolute;
    inset-inline-start: 0.5rem;
    top: -3rem;
    background: var(--c-bg);
    padding: 0.5rem;
  }
  .skip:focus {
    top: 0.5rem;
  }
  header {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1rem;
    padding: 0.5rem 1rem;
    border-bottom: 1px solid var(--c-border);
    background: var(--c-surface);
  }
  .brand {
    font-weight: 600;
  }
  nav {
    display: flex;
    gap: 1rem;
  }
  nav a[aria-current='page'] {
    font-weight: 600;
    text-decoration-thickness: 2px;
  }
  .spacer {
    flex: 1;
  }
  label {
    display: flex;
    align-items: center;
    gap: 0.35rem;
    font-size: 0.9rem;
  }
  main {
    padding: 1rem;
    max-width: 90rem;
    margin: 0 auto;
  }
  main:focus {
    outline: none;
  }
`;
