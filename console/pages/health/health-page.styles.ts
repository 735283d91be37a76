import { css } from 'lit';

export const styles = css`
  dl.summary {
    gap: 0.5rem 1rem;
  }
  .summary dd {
    font-size: 1.2rem;
    font-weight: 600;
  }
  .charts {
    display: grid;
    /* One column on a screen narrower than a chart. */
    grid-template-columns: repeat(auto-fit, minmax(min(26rem, 100%), 1fr));
    gap: 1rem;
  }
  .charts section.card {
    margin: 0;
    min-width: 0;
  }
  .chart-title {
    font-size: 1rem;
  }
`;
