import { nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { Prompt } from '../../shared/schema/config.ts';
import { loadBackground } from '../load-background.ts';
import { options } from '../settings.ts';
import { stringsFor } from '../strings.ts';
import type { FeedbackActions, Panel } from '../ui/host.ts';

/** What has focus, inside shadow roots too (the page's chat may be a web component itself). */
function focusedElement(): Element | null {
  let el = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el;
}

/** Whether the user has written in an element's popover (a correction, its text or where it is written, or "tell us more"): what they wrote is never lost. */
export function written(host: Pick<Element, 'shadowRoot'>): boolean {
  const root = host.shadowRoot;
  return !!(root?.querySelector('textarea')?.value || root?.querySelector('input')?.value);
}

/** The popover last opened on the page (or opening, its code still on the way): opening one on another answer closes it, as menus do, unless the user has written in its form. */
let open: PopoverController | undefined;

/** The feedback the popover and prompts show, and the actions their buttons take. */
export interface PopoverSource extends FeedbackActions {
  /** The popover's open step. */
  readonly panel: Panel;
  /** The contextual prompt on show. */
  readonly prompt: Prompt | null;
  /** The rating given, 1-5 (rating mode). */
  readonly rating: number | null;
}

/**
 * The popover (reasons, wrong sources, correction form) and contextual prompts. Their code comes
 * with the background chunk (their styles are the element's): once it is there they render, and a click that came
 * first asks for it and renders when it arrives (offline: when the page is back online, in browsers
 * that fetch a failed import again; Chromium 153 does not, and the popover stays closed on that page). Focus follows the popover: each step shown
 * takes it (one shown late, when its code came, only if the focus has not moved meanwhile), and closing the popover, or answering the prompt, while it has focus gives focus back to the vote button (the star given, in rating mode).
 */
export class PopoverController implements ReactiveController {
  /** The step the last render showed. */
  private shown: Panel;
  private focusStep?: boolean;
  /** What had focus when a step could not render for want of its code: the step takes focus only from it once the code is there. */
  private focusedWhileLoading?: Element | null;
  private hadFocus?: boolean;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly feedback: PopoverSource,
  ) {
    this.shown = feedback.panel;
    host.addController(this);
  }

  /** The popover and the prompt as they stand: nothing while both are closed or still loading. */
  render(locale: string) {
    const { panel, prompt } = this.feedback;
    if (panel.kind === 'closed' && !prompt) return nothing;
    const ui = loadBackground.value;
    if (!ui) {
      const update = () => this.host.requestUpdate();
      // Offline, the fetch fails: the click is shown once the page is back online (each listener goes after one event).
      void loadBackground().then(update, () => addEventListener('online', update, { once: true }));
      return nothing;
    }
    const strings = stringsFor(locale, options.strings, ui.POPOVER_STRINGS);
    return [
      panel.kind === 'closed' ? nothing : ui.renderPanel(this.feedback, strings, panel),
      prompt ? ui.renderPrompt(this.feedback, prompt, locale, strings) : nothing,
    ];
  }

  hostUpdate(): void {
    // Before the render: does the element's own UI hold the focus?
    this.hadFocus = !!this.host.shadowRoot?.activeElement;
    const { panel } = this.feedback;
    if (panel === this.shown) return;
    this.shown = panel;
    this.focusStep = panel.kind !== 'closed';
    if (this.focusStep) {
      // Not a form the user has written in, though: an empty one closes as any other.
      if (open && open !== this && !written(open.host)) open.feedback.closePanel();
      open = this;
    }
    this.focusedWhileLoading = undefined;
  }

  hostUpdated(): void {
    const root = this.host.shadowRoot;
    const focus = (selector: string) => root?.querySelector<HTMLElement>(selector)?.focus();
    if (this.focusStep && !loadBackground.value) this.focusedWhileLoading ??= focusedElement();
    if (this.focusStep && loadBackground.value) {
      this.focusStep = false;
      // Shown late, it does not take focus from where the user went meanwhile (typing in the chat's
      // input, where their next Enter would choose a reason).
      if (this.focusedWhileLoading === undefined || this.focusedWhileLoading === focusedElement()) focus('[data-autofocus]');
    } else if (this.hadFocus && !root?.activeElement) {
      // What had it is gone (the popover closed, a prompt answered): the vote takes it, not the page's body,
      // in rating mode the star given (the first while none is).
      focus(`[part~="vote-down"], [part~="star"]:nth-of-type(${this.feedback.rating || 1})`);
    }
  }
}
