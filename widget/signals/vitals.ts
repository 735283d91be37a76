import type { CLSMetric, INPMetric, LCPMetric } from 'web-vitals';
import type { EventDetail } from '../../shared/schema/event.ts';
import { safely, warn } from '../guard.ts';
import { whenIdle } from '../idle.ts';
import { loadBackground } from '../load-background.ts';

type Report = (detail: EventDetail<'web_vitals'>) => void;

let report: Report | undefined;

/**
 * Web vitals once per page session, as context for the answers on the page: attached to the
 * trace of the most recently connected widget (a slow page explains a bounce). The library
 * loads when the page is idle; its observers read buffered entries, so nothing is missed.
 */
export function reportVitalsTo(latest: Report): void {
  const first = report === undefined;
  report = latest;
  if (first) whenIdle(observe);
}

function observe(): void {
  loadBackground()
    .then(({ onCLS, onINP, onLCP }) => {
      // Each metric's first value only: web-vitals reports INP and CLS again at a later page hide if they grew.
      const sent = new Set<string>();
      const forward = safely((m: INPMetric | LCPMetric | CLSMetric) => {
        if (!sent.has(m.name)) report?.({ name: m.name, value: m.value, rating: m.rating });
        sent.add(m.name);
      });
      // No options: the widget build leaves out web-vitals' soft-navigation code (`reportSoftNavs`).
      onINP(forward);
      onLCP(forward);
      onCLS(forward);
    })
    .catch((err) => {
      warn(err);
      addEventListener('online', observe, { once: true }); // offline since the page loaded: once back
    });
}
