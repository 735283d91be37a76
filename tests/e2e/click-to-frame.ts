import type { Locator } from 'playwright-core';

export interface ClickToFrame {
  /** Milliseconds from the click to the start of the next frame. */
  ms: number;
  /** Whether that frame shows the button pressed. */
  pressed: boolean;
}

/**
 * Clicks the thumbs-up button of a widget from inside the page and looks at the next animation
 * frame: how long it took to come, and whether it shows the button pressed. The test asserts the
 * second; the benchmark reports the first.
 */
export const clickToFrame = (widget: Locator): Promise<ClickToFrame> =>
  widget.evaluate(
    (el) =>
      new Promise<ClickToFrame>((resolve) => {
        const button = el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="vote-up"]')!;
        const start = performance.now();
        button.click();
        requestAnimationFrame(() => resolve({ ms: performance.now() - start, pressed: button.getAttribute('aria-pressed') === 'true' }));
      }),
  );
