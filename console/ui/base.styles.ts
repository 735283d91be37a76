import { css } from 'lit';

/** What every console element shares: type, buttons, fields, focus, tables, definition lists. Colours come from console.css. */
export const baseStyles = css`
  :host {
    display: block;
    color: var(--c-fg);
  }
  h1,
  h2,
  h3 {
    line-height: 1.25;
    margin: 0 0 0.5rem;
  }
  h1 {
    font-size: 1.5rem;
  }
  h2 {
    font-size: 1.15rem;
  }
  h3 {
    font-size: 1rem;
  }
  a {
    color: var(--c-accent);
  }
  button,
  select,
  input,
  textarea {
    font: inherit;
    color: inherit;
  }
  button {
    background: var(--c-surface);
    border: 1px solid var(--c-border);
    border-radius: var(--c-radius);
    padding: 0.35rem 0.75rem;
    cursor: pointer;
  }
  button.primary {
    background: var(--c-accent-strong);
    border-color: var(--c-accent-strong);
    color: var(--c-on-accent);
  }
  button:disabled,
  button[aria-disabled='true'] {
    cursor: default;
    opacity: 0.6;
  }
  select,
  input,
  textarea {
    background: var(--c-bg);
    border: 1px solid var(--c-border);
    border-radius: var(--c-radius);
    padding: 0.35rem 0.5rem;
  }
  :focus-visible {
    outline: 2px solid var(--c-focus);
    outline-offset: 2px;
  }
  kbd {
    font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
    font-size: 0.85em;
    border: 1px solid var(--c-border);
    border-radius: 4px;
    padding: 0 0.3em;
    background: var(--c-surface);
  }
  code,
  .mono {
    font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
    font-size: 0.9em;
    overflow-wrap: anywhere;
  }
  /* In a table an id or a date keeps its line ("t-7x80-9u", not "t-7x80-" above "9u"): its column
     takes its width, and the table scrolls in its box. */
  td .mono,
  td code,
  td.date {
    white-space: nowrap;
    overflow-wrap: normal;
  }
  /* A user's text in a table keeps room to be read, a few words a line: its words may break anywhere
     (below), which would let its column shrink to a letter or two. The table scrolls in its box. */
  td.text {
    min-width: 12em;
  }
  .muted {
    color: var(--c-muted);
  }
  .error {
    color: var(--c-bad);
  }
  .card {
    background: var(--c-surface);
    border: 1px solid var(--c-border);
    border-radius: var(--c-radius);
    padding: 1rem;
  }
  table {
    border-collapse: collapse;
    width: 100%;
  }
  th,
  td {
    text-align: start;
    vertical-align: top;
    padding: 0.3rem 0.5rem;
    border-bottom: 1px solid var(--c-border);
  }
  mark {
    background: var(--c-mark-bg);
    color: var(--c-mark-fg);
    border-radius: 2px;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  .text {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    /* A user's text takes its direction from its own first letters: Arabic or Hebrew reads right to left. */
    unicode-bidi: plaintext;
  }
  dt {
    color: var(--c-muted);
  }
  dd {
    margin: 0;
  }
  /* A grid of labelled figures: the health summary, a trace's details. */
  dl.facts {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr));
    gap: 0.25rem 1rem;
    margin: 0;
  }
  dl.facts dt {
    font-size: 0.85rem;
  }
`;
