import { type CSSResult, unsafeCSS } from 'lit';

/**
 * Lit's `css` tag for styles without interpolations, as all of the widget's are: the same
 * stylesheet, without the tag's checks of interpolated values (and its long error message).
 */
export const css = ([text]: TemplateStringsArray): CSSResult => unsafeCSS(text);
