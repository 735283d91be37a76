import { css } from 'lit';

export const styles = css`
  .outcome:empty {
    display: none;
  }
  .correction {
    border-top: 1px solid var(--c-border);
    padding: 0.75rem 0;
  }
  .correction:first-of-type {
    border-top: none;
  }
  /* One label width for every card, a longer label wrapping: values line up from card to card
     whichever rows a card has. */
  dl {
    display: grid;
    grid-template-columns: 10rem minmax(0, 1fr);
    gap: 0.2rem 1rem;
    margin: 0 0 0.5rem;
  }
  dl div {
    display: contents;
  }
  .resolve {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  .resolve input {
    flex: 1;
    min-width: 16rem;
  }
`;
