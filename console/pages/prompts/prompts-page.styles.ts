import { css } from 'lit';

export const styles = css`
  .editor {
    display: grid;
    grid-template-columns: minmax(0, 3fr) minmax(16rem, 2fr);
    gap: 1rem;
    align-items: start;
  }
  @media (max-width: 60rem) {
    .editor {
      grid-template-columns: 1fr;
    }
  }
  .preview {
    position: sticky;
    top: 1rem;
  }
  /* A heading after the list's button starts a section of its own. */
  form > button + h2 {
    margin-top: 1.5rem;
  }
  fieldset {
    border: 1px solid var(--c-border);
    border-radius: var(--c-radius);
    margin: 0 0 0.75rem;
  }
  .grid {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr));
    gap: 0.5rem 1rem;
    margin-bottom: 0.5rem;
  }
  /* A field: its label (the control inside) and, outside the label, its message. */
  .field,
  .field label {
    display: grid;
    gap: 0.15rem;
    min-width: 0;
  }
  .field {
    font-size: 0.9rem;
  }
  /* A long option must not widen its column past the card. */
  .grid select {
    min-width: 0;
    width: 100%;
  }
  .wide {
    grid-column: 1 / -1;
  }
  .check {
    margin-bottom: 0.75rem;
  }
  .check label {
    display: flex;
    gap: 0.5rem;
    align-items: center;
  }
  .field-error {
    display: block;
    font-size: 0.85rem;
  }
  .actions {
    display: flex;
    gap: 0.5rem;
    align-items: center;
  }
`;
