import { css } from 'lit';

/** The frame's layout. It renders into the document (see RfConsole), so every rule is scoped to it by name. */
export const styles = css`
  rf-console {
    display: block;
    min-height: 100vh;
  }
  rf-console .skip {
    position: absolute;
    inset-inline-start: 0.5rem;
    top: -3rem;
    background: var(--c-bg);
    padding: 0.5rem;
  }
  rf-console .skip:focus {
    top: 0.5rem;
  }
  rf-console header {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1rem;
    padding: 0.5rem 1rem;
    border-bottom: 1px solid var(--c-border);
    background: var(--c-surface);
  }
  rf-console .brand {
    font-weight: 600;
  }
  rf-console .project {
    color: var(--c-muted);
    overflow-wrap: anywhere;
  }
  rf-console .project strong {
    color: var(--c-fg);
  }
  rf-console nav {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 1rem;
  }
  rf-console nav a[aria-current='page'] {
    font-weight: 600;
    text-decoration-thickness: 2px;
  }
  rf-console .spacer {
    flex: 1;
  }
  /* Language, theme and sign-out wrap together, not one by one. */
  rf-console .controls {
    margin-inline-start: auto;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1rem;
  }
  rf-console label {
    display: flex;
    align-items: center;
    gap: 0.35rem;
    font-size: 0.9rem;
  }
  /* What the frame says above every page: settings mistyped, a language that could not be loaded. */
  rf-console .notice {
    /* Lined up with the page below it: main's padding, and its width centred on a wide screen. */
    margin: 1rem max(1rem, (100% - 88rem) / 2) 0;
    padding: 0.5rem 1rem;
    border: 1px solid var(--c-warn);
    border-radius: var(--c-radius);
    overflow-wrap: anywhere;
  }
  rf-console .config-problems h2 {
    margin: 0;
    font-size: 1rem;
    color: var(--c-warn);
  }
  rf-console main {
    padding: 1rem;
    max-width: 90rem;
    margin: 0 auto;
  }
  rf-console main:focus {
    outline: none;
  }
`;
