import { describe, expect, it } from 'vitest';
import { paths, routeOf } from './router.ts';

const at = (path: string) => routeOf(new URL(`http://127.0.0.1:8787${path}`));

describe('routeOf', () => {
  it('names the page and decodes its parameters, as paths writes them', () => {
    expect(at(paths.trace('t/1 ü'))).toMatchObject({ page: 'trace', params: { traceId: 't/1 ü' } });
    expect(at('/admin')).toMatchObject({ page: 'review', params: {} });
    expect(at('/admin/nowhere')).toMatchObject({ page: 'not-found' });
    const chunks = at(paths.chunks({ sort: 'flags', minShown: '5' }));
    expect([chunks.page, chunks.query.get('sort'), chunks.query.get('minShown')]).toEqual(['chunks', 'flags', '5']);
    expect(at(paths.deadLetters())).toMatchObject({ page: 'dead-letters', params: {} });
  });

  it('answers "not found" for a parameter that is not valid percent-encoding (a hand-edited or cut-off link), never throws', () => {
    expect(at('/admin/traces/abc%E0')).toMatchObject({ page: 'not-found', params: {} });
    expect(at('/admin/traces/100%')).toMatchObject({ page: 'not-found', params: {} });
  });
});
