import { CURATED_LAYER, type GateFinding } from '../../../shared/training/gate-findings.ts';
import { format, type Strings } from '../../i18n/strings.ts';

const f3 = (x: number) => x.toFixed(3);

/** What the gate found, in the console's language (the job's `reasons` are English only). */
export function findingText(f: GateFinding, s: Strings): string {
  const text = plainFinding(f, s);
  return 'basis' in f && f.basis === CURATED_LAYER ? format(s.gate_on_curated, { finding: text }) : text;
}

function plainFinding(f: GateFinding, s: Strings): string {
  switch (f.kind) {
    case 'too_few_queries':
      return format(s.gate_too_few_queries, { queries: f.queries, needed: f.needed });
    case 'gain_too_small':
      return format(s.gate_gain_too_small, { gain: f3(f.gain), minimum: f3(f.minimum) });
    case 'gain_not_sure':
      return format(s.gate_gain_not_sure, { gain: f3(f.gain), t: f.t.toFixed(2), needed: f.needed.toFixed(2), changed: f.changed, queries: f.queries });
    case 'layer_loses':
      return format(s.gate_layer_loses, { layer: f.layer, loss: f3(f.loss), tolerance: f3(f.tolerance) });
    case 'current_not_comparable':
      return format(s.gate_current_not_comparable, { version: f.version });
    case 'passed':
      return format(s.gate_passed, { before: f3(f.before), after: f3(f.after), gain: f3(f.after - f.before), queries: f.queries });
  }
}
