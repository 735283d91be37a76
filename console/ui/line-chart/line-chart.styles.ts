import { css } from 'lit';

export const styles = css`
  figure {
    margin: 0;
  }
  figcaption {
    font-weight: 600;
    margin-bottom: 0.25rem;
  }
  .plot {
    min-height: 200px;
  }
  .u-legend {
    color: var(--c-fg);
    font-size: 0.85rem;
  }
  details {
    margin-top: 0.25rem;
  }
`;
