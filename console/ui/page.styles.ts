import { css } from 'lit';

/** Layout the list pages share: intro, filter row, tables that scroll sideways on narrow screens. */
export const pageStyles = css`
  .intro {
    color: var(--c-muted);
    margin-top: 0;
  }
  .filters {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
    align-items: end;
    margin-bottom: 1rem;
  }
  .filters label {
    display: grid;
    gap: 0.15rem;
    font-size: 0.9rem;
  }
  .filters input[type='number'] {
    width: 6rem;
  }
  .error:empty {
    display: none;
  }
  .scroll {
    overflow-x: auto;
  }
  section.card {
    margin-bottom: 1rem;
  }
  ul.plain {
    margin: 0;
    padding-inline-start: 1rem;
  }
`;
