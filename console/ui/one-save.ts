import type { ReactiveControllerHost } from 'lit';

/**
 * One save of a form at a time. A second submit while the first is on its way would send the
 * version the form was read at, already replaced by the first: refused as another admin's save.
 * `busy` marks the form's Save aria-disabled meanwhile (not disabled, which would drop the
 * keyboard to the page's body).
 */
export class OneSave {
  busy = false;

  constructor(private readonly host: ReactiveControllerHost) {}

  /** Runs `save`, unless one is on its way: then the submit is ignored. */
  async run(save: () => Promise<unknown>): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.host.requestUpdate();
    try {
      await save();
    } finally {
      this.busy = false;
      this.host.requestUpdate();
    }
  }
}
