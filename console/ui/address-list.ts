import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { api } from '../api/client.ts';
import type { Route } from '../app/router.ts';

/**
 * A list page's list: what an admin route answers for the filters the page's address carries
 * (`names`), loaded again whenever the address changes them. An answer for an address left
 * meanwhile (back, forward, another filter applied) is dropped.
 */
export class AddressList<T, Body = never> implements ReactiveController {
  /** Undefined while it loads, and when it failed. */
  items: T[] | undefined;
  /** The whole answer the items came from, for a page that shows more of it (a total); undefined with `items`. */
  body: Body | undefined;
  /** Why the list could not be fetched. */
  error: unknown;
  private loadedQuery: string | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & { route: Route },
    private readonly path: string,
    private readonly names: readonly string[],
    private readonly itemsOf: (body: Body) => T[],
  ) {
    host.addController(this);
  }

  /** The address's filters, as the route takes them. */
  query(): string {
    const q = new URLSearchParams();
    for (const name of this.names) {
      const v = this.host.route.query.get(name);
      if (v) q.set(name, v);
    }
    return q.toString();
  }

  hostUpdate(): void {
    if (this.host.route && this.query() !== this.loadedQuery) void this.load();
  }

  async load(): Promise<void> {
    const query = this.query();
    this.loadedQuery = query;
    this.items = undefined;
    this.body = undefined;
    this.error = undefined;
    this.host.requestUpdate();
    try {
      const body = await api<Body>(`${this.path}${query ? `?${query}` : ''}`);
      if (this.loadedQuery === query) [this.items, this.body] = [this.itemsOf(body), body];
    } catch (err) {
      if (this.loadedQuery === query) this.error = err;
    }
    this.host.requestUpdate();
  }
}
