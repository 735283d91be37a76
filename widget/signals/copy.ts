import type { ReactiveController } from 'lit';
import { safely } from '../guard.ts';
import type { SignalElement, SignalSink } from './host.ts';

/**
 * Copies of the answer or of a cited source (a citation, `data-chunk-id`, or its in-page preview,
 * `data-preview-for`), and how long.
 */
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
    const source = anchor.closest<HTMLElement>('[data-chunk-id],[data-preview-for]');
    // Within a citation or a preview inside this element (the previews its dwell times), a copy of that source.
    this.sink.reportCopy(text.length, this.host.contains(source) ? (source!.dataset.chunkId ?? source!.dataset.previewFor) : undefined);
  });

  hostConnected(): void {
    document.addEventListener('copy', this.onCopy);
  }

  hostDisconnected(): void {
    document.removeEventListener('copy', this.onCopy);
  }
}
