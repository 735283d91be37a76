/**
 * A CSS colour as the canvas needs it: the console's colours are `light-dark()` pairs in custom
 * properties, which only an element's computed style resolves for the theme in force.
 */
export function resolveColor(host: Element, cssColor: string): string {
  const probe = document.createElement('span');
  probe.style.color = cssColor;
  probe.hidden = true;
  (host.shadowRoot ?? host).appendChild(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}
