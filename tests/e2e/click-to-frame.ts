import type { Page } from 'playwright-core';

export interface ClickToFrame {
  /** Milliseconds from the click to the start of the next frame. */
  ms: number;
  /** Whether that frame shows the button pressed. */
  pressed: boolean;
}

/**
 * Clicks the thumbs-up button of a widget (the `index`th match of `selector`) from inside the page
 * and looks at the next animation frame: how long it took to come, and whether it shows the
 * button pressed. The test asserts the second; the benchmark reports the first. One evaluate does
 * it all, so the figure does not depend on how Playwright finds the element.
 */
export const clickToFrame = (page: Page, selector: string, index = 0): Promise<ClickToFrame> =>
  page.evaluate(
    ([selector, index]) =>
      new Promise<ClickToFrame>((resolve) => {
        const el = document.querySelectorAll(selector)[index]!;
        const button = el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="vote-up"]')!;
        const start = performance.now();
        button.click();
        requestAnimationFrame(() => resolve({ ms: performance.now() - start, pressed: button.getAttribute('aria-pressed') === 'true' }));
      }),
    [selector, index] as const,
  );
