import { css } from 'lit';

export const styles = css`
  .replay {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
    align-items: center;
    margin-bottom: 1rem;
  }
  .outcome:empty {
    display: none;
  }
  ul.preview {
    list-style: none;
    margin: 0;
    padding: 0;
    font-size: 0.85rem;
  }
  td.error-text {
    max-width: 24rem;
  }
`;
