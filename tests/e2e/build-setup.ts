/** Once for the browser suites: build the widget and the console the pages load. */
import { buildConsole } from '../../scripts/build-console.ts';
import { buildWidget } from '../../scripts/build-widget.ts';

export default async function setup() {
  await buildWidget({ types: false });
  await buildConsole();
}
