import { css } from './css.ts';

/** Styles of the popover, the correction form and prompts: adopted when they first load. */
export const panelStyles = css`
  .panel,
  .prompt {
    margin-top: 0.5rem;
    padding: 0.75rem;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--rf-radius, 6px);
    max-width: 32rem;
  }
  .panel h2,
  .prompt p {
    font-size: inherit;
    font-weight: 600;
    margin: 0 0 0.5rem;
  }
  .options {
    display: flex;
    flex-wrap: wrap;
    gap: 0.375rem;
    margin: 0 0 0.5rem;
    padding: 0;
    list-style: none;
  }
  label {
    display: block;
    margin: 0.5rem 0 0.25rem;
  }
  textarea,
  input {
    box-sizing: border-box;
    width: 100%;
    font: inherit;
    color: var(--_fg);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--rf-radius, 6px);
    padding: 0.375rem;
  }
  .actions {
    display: flex;
    gap: 0.375rem;
    justify-content: flex-end;
    margin-top: 0.5rem;
  }
  .column {
    flex-direction: column;
  }
`;
