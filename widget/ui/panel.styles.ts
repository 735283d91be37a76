import { css } from './css.ts';

/** Styles of the popover, the correction form and prompts (their code comes later, with the background chunk). */
export const panelStyles = css`
  .panel,
  .prompt,
  textarea,
  input {
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--rf-radius, 6px);
  }
  .panel,
  .prompt {
    margin-top: .5rem;
    padding: .75rem;
    max-width: 32rem;
  }
  .panel h2,
  .prompt p {
    font-size: inherit;
    font-weight: 600;
    margin: 0 0 .5rem;
  }
  .options {
    display: flex;
    flex-flow: wrap;
    gap: .375rem;
    margin: 0 0 .5rem;
    padding: 0;
    list-style: none;
  }
  label {
    display: block;
    margin: .5rem 0 .25rem;
  }
  textarea,
  input {
    box-sizing: border-box;
    width: 100%;
    font: inherit;
    color: var(--_fg);
    padding: .375rem;
  }
  .actions {
    display: flex;
    gap: .375rem;
    justify-content: end;
    margin-top: .5rem;
  }
  .column {
    flex-direction: column;
  }
`;
