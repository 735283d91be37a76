import { css } from '../ui/css.ts';

/**
 * Theming: every colour is a custom property with light and dark defaults (AA contrast in both),
 * chosen by `light-dark()`: `theme="light|dark"` forces one, otherwise the page's own
 * `color-scheme` decides, inherited (a page that declares none is light, as it renders).
 * The widget's size and colour are set on its own parts, not the host, so the answer slotted in
 * keeps the page's.
 */
export const styles = css`
  :host {
    --_fg: var(--rf-fg, light-dark(#1f2328, #e6edf3));
    --_muted: var(--rf-muted, light-dark(#57606a, #9198a1));
    --_accent: var(--rf-accent, light-dark(#0969da, #1f6feb));
    --_accent-fg: var(--rf-accent-fg, #fff);
    --_link: var(--rf-link, light-dark(#0969da, #4493f8));
    --_surface: var(--rf-surface, light-dark(#fff, #161b22));
    --_border: var(--rf-border, light-dark(#6e7781, #8b949e));
    --_focus: var(--rf-focus, light-dark(#0969da, #4493f8));
    display: block;
    font: inherit;
  }
  :host([theme=light]) {
    color-scheme: light;
  }
  :host([theme=dark]) {
    color-scheme: dark;
  }
  .bar,
  .panel,
  .prompt {
    font-size: var(--rf-font-size, .875rem);
    color: var(--_fg);
  }
  .bar {
    display: flex;
    align-items: center;
    gap: .25rem;
    margin-top: .5rem;
  }
  .label {
    color: var(--_muted);
    margin-inline-end: .25rem;
  }
  button {
    font: inherit;
    color: var(--_fg);
    background: none;
    border: 1px solid var(--_border);
    border-radius: var(--rf-radius, 6px);
    padding: .25rem .5rem;
    cursor: pointer;
    min-height: 2rem;
  }
  button.icon {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    width: 2rem;
    padding: 0;
  }
  button[aria-pressed=true] {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-fg);
  }
  :is(button, textarea, input):focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  button.link {
    border: 0;
    color: var(--_link);
    text-decoration: underline;
    padding: .25rem;
  }
  .flip {
    display: inline-flex;
    transform: rotate(180deg);
  }
  svg {
    width: 1rem;
    height: 1rem;
    fill: currentColor;
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
`;
