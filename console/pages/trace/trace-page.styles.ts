import { css } from 'lit';

export const styles = css`
  .lookup {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
    margin-bottom: 1rem;
  }
  .lookup input {
    flex: 0 1 20rem;
    min-width: 0;
    font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
  }
  .error:empty {
    display: none;
  }
  section.card {
    margin-bottom: 1rem;
  }
  .columns {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(22rem, 100%), 1fr));
    gap: 1rem;
  }
  .query {
    font-size: 1.1rem;
    margin: 0 0 0.5rem;
  }
  .meta dd {
    overflow-wrap: anywhere;
  }
  .diagnosis {
    border-inline-start: 4px solid var(--c-warn);
  }
  .up {
    color: var(--c-good);
  }
  .down {
    color: var(--c-bad);
  }
  .rank {
    font-weight: 600;
  }
  summary {
    cursor: pointer;
  }
  .chunk-text {
    margin: 0.5rem 0 0;
  }
  .scroll {
    overflow-x: auto;
  }
  /* A signal's or rule's name is one word: it never breaks inside ("thumbs_" above "down"). */
  code.name {
    white-space: nowrap;
    overflow-wrap: normal;
  }
  .rules {
    margin: 0;
    padding-inline-start: 1rem;
  }
  tr.superseded {
    color: var(--c-muted);
  }
  .detail {
    font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
    font-size: 0.85em;
  }
`;
