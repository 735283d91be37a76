import { css } from 'lit';

export const styles = css`
  .progress {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1.5rem;
    align-items: center;
    margin-bottom: 0.75rem;
  }
  .progress label {
    display: flex;
    gap: 0.5rem;
    align-items: center;
  }
  progress {
    width: 12rem;
    accent-color: var(--c-accent);
  }
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
    margin-bottom: 0.5rem;
  }
  .spacer {
    flex: 1;
  }
  .error:empty {
    display: none;
  }
  .question {
    margin: 0 0 0.25rem;
    color: var(--c-muted);
  }
  .label {
    font-size: 0.8rem;
    font-weight: normal;
    color: var(--c-muted);
    text-transform: uppercase;
    letter-spacing: 0.04em;
  }
  .meta {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 1.25rem;
    margin: 0.5rem 0;
  }
  .meta div {
    display: flex;
    gap: 0.35rem;
  }
  .chunk {
    margin: 0.75rem 0;
    padding: 0.75rem 1rem;
    border-inline-start: 4px solid var(--c-accent);
    background: var(--c-bg);
  }
  .answer {
    display: grid;
    gap: 0.4rem;
    margin: 1rem 0;
  }
  .verdicts {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  .verdict[aria-pressed='true'] {
    background: var(--c-accent-strong);
    border-color: var(--c-accent-strong);
    color: var(--c-on-accent);
  }
  .verdict[aria-pressed='true'] kbd {
    color: var(--c-fg);
  }
  .answered {
    margin: 0;
    font-weight: 600;
  }
  textarea {
    width: 100%;
    box-sizing: border-box;
  }
  .saved-note {
    margin: 0;
  }
  .traces {
    margin-top: 1rem;
    overflow-x: auto;
  }
  dialog {
    min-width: 20rem;
  }
  dialog form {
    margin-top: 0.75rem;
    text-align: end;
  }
`;
