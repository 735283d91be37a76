import type { ReactiveController } from 'lit';
import { safely } from '../guard.ts';
import type { SignalElement, SignalSink } from './host.ts';

/** Copies of the answer or of a cited source (an element with `data-chunk-id`), and how long. */
export class CopyController implements ReactiveController {
  constructor(
    private readonly host: SignalElement,
    private readonly sink: SignalSink,
  ) {
    host.addController(this);
  }

  private readonly onCopy = safely(() => {
    const selection = document.getSelection();
    const text = selection?.toString() ?? '';
    const node = selection?.anchorNode;
    if (!text || !node) return;
    const anchor = node instanceof Element ? node : node.parentElement;
    if (!anchor || !this.host.contains(anchor)) return;
    const citation = anchor.closest<HTMLElement>('[data-chunk-id]');
    if (citation && this.host.contains(citation)) {
      this.sink.recordSignal('copy_source', { chunkId: citation.dataset.chunkId, chars: text.length });
    } else {
      this.sink.recordSignal('copy_answer', { chars: text.length });
    }
    if (text.length >= this.sink.thresholds.largeCopyChars) this.sink.triggerPrompt('large_copy');
  });

  hostConnected(): void {
    document.addEventListener('copy', this.onCopy);
  }

  hostDisconnected(): void {
    document.removeEventListener('copy', this.onCopy);
  }
}
