import { nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { Prompt } from '../../shared/schema/config.ts';
import { loadBackground } from '../load-background.ts';
import type { Strings } from '../strings.ts';
import type { FeedbackActions, Panel } from '../ui/host.ts';

/** The feedback the popover and prompts show, and the actions their buttons take. */
export interface PopoverSource extends FeedbackActions {
  /** The popover's open step. */
  readonly panel: Panel;
  /** The contextual prompt on show. */
  readonly prompt: Prompt | null;
}

/**
 * The popover (reasons, wrong sources, correction form) and contextual prompts. Their code comes
 * with the background chunk (their styles are the element's): once it is there they render, and a click that came
 * first asks for it and renders when it arrives (offline: when the page is back online, in browsers
 * that fetch a failed import again; Chromium 153 does not, and the popover stays closed on that page). Focus follows the popover: each step shown
 * takes it, and closing the popover while it has focus gives focus back to the vote button.
 */
export class PopoverController implements ReactiveController {
  /** The step the last render showed. */
  private shown: Panel;
  private focusStep?: boolean;
  private focusVote?: boolean;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly feedback: PopoverSource,
  ) {
    this.shown = feedback.panel;
    host.addController(this);
  }

  /** The popover and the prompt as they stand: nothing while both are closed or still loading. */
  render(strings: Strings, locale: string) {
    const { panel, prompt } = this.feedback;
    if (panel.kind === 'closed' && !prompt) return nothing;
    const ui = loadBackground.value;
    if (!ui) {
      const update = () => this.host.requestUpdate();
      // Offline, the fetch fails: the click is shown once the page is back online (each listener goes after one event).
      void loadBackground().then(update, () => addEventListener('online', update, { once: true }));
      return nothing;
    }
    return [
      panel.kind === 'closed' ? nothing : ui.renderPanel(this.feedback, strings, panel),
      prompt ? ui.renderPrompt(this.feedback, prompt, locale, strings) : nothing,
    ];
  }

  hostUpdate(): void {
    const { panel } = this.feedback;
    if (panel === this.shown) return;
    this.shown = panel;
    this.focusStep = panel.kind !== 'closed';
    // Before the render removes the popover: does it hold the focus?
    const root = this.host.shadowRoot;
    this.focusVote = !this.focusStep && !!root?.querySelector('.panel')?.contains(root.activeElement);
  }

  hostUpdated(): void {
    const focus = (selector: string) => this.host.shadowRoot?.querySelector<HTMLElement>(selector)?.focus();
    if (this.focusStep && loadBackground.value) {
      this.focusStep = false;
      focus('[data-autofocus]');
    }
    if (this.focusVote) {
      this.focusVote = false;
      focus('[part~="vote-down"], [part~="star"]');
    }
  }
}
