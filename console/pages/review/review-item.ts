import { html, nothing } from 'lit';
import type { ReviewItem, ReviewItemTrace } from '../../api/types.ts';
import { paths } from '../../app/router.ts';
import { dateTime } from '../../i18n/locale.ts';
import { format, type Locale, type Strings } from '../../i18n/strings.ts';
import { highlightSegments } from '../../ui/highlight.ts';
import { evidenceWords } from './evidence-words.ts';
import { guessWhyWords } from './guess-why-words.ts';

/** Text with the query's terms marked; every piece is rendered as text. */
export const highlighted = (text: string, query: string) => highlightSegments(text, query).map((s) => (s.hit ? html`<mark>${s.text}</mark>` : s.text));

/** One item: the query, the chunk with the query's terms marked, where it ranked, the guess and the evidence. */
export function renderItem(item: ReviewItem, s: Strings) {
  const c = item.chunk;
  return html`<p class="question">${s.reviewQuestion}</p>
    ${
      item.heldOut
        ? html`<p class="muted" data-field="held-out">${s.heldOutNote}</p>`
        : item.curated
          ? html`<p class="muted" data-field="curated">${s.curatedNote}</p>`
          : nothing
    }
    <h2 id="item-query"><span class="label">${s.query}</span> <span class="text" data-field="query">${item.query}</span></h2>
    <dl class="meta">
      <div><dt>${s.document}</dt><dd class="mono">${c.sourceDocId}</dd></div>
      ${c.sourceDocVersion ? html`<div><dt>${s.version}</dt><dd class="mono">${c.sourceDocVersion}</dd></div>` : nothing}
      <div><dt>${s.chunk}</dt><dd class="mono">${c.chunkId}</dd></div>
      <div><dt>${s.rank}</dt><dd>${item.rank}</dd></div>
      <div><dt>${s.score}</dt><dd>${item.score.toFixed(3)}</dd></div>
    </dl>
    <blockquote class="chunk text" data-field="chunk" aria-label=${s.chunk}>${highlighted(c.text, item.query)}</blockquote>
    <section class="guess" aria-labelledby="guess-title">
      <h3 id="guess-title">${s.guess}</h3>
      <p>
        <strong class="guess-${item.guess}">${s[`guess_${item.guess}`]}</strong> ·
        <span class="muted">${item.candidate === 'negative' ? s.candidateNegative : s.candidatePositive}</span>
      </p>
      <p class="text" data-field="guess-why">${guessWhyWords(item.guessWhyCode, s)}</p>
      <h3>${s.evidence}</h3>
      <ul data-field="evidence">
        ${evidenceWords(item.evidenceCodes, s).map((e) => html`<li class="text">${e}</li>`)}
      </ul>
    </section>`;
}

/** The traces behind the item (the same query and chunk), each linking to its trace view. */
/** `retry`: given when fetching the traces failed, to ask again. */
export function renderTraces(item: ReviewItem, traces: ReviewItemTrace[] | undefined, s: Strings, locale: Locale, retry?: () => void) {
  return html`<section class="traces" aria-labelledby="traces-title">
    <h3 id="traces-title">${format(s.otherTraces, { n: item.traceCount })}</h3>
    ${
      retry
        ? html`<p class="error" role="alert">${s.tracesFailed} <button @click=${retry}>${s.retry}</button></p>`
        : traces === undefined
          ? html`<p class="muted">${s.loading}</p>`
          : html`<table>
          <thead>
            <tr><th scope="col">${s.traceId}</th><th scope="col">${s.query}</th><th scope="col">${s.createdAt}</th><th scope="col">${s.rank}</th><th scope="col">${s.weight}</th><th scope="col">${s.evidence}</th></tr>
          </thead>
          <tbody>
            ${traces.map(
              (t) => html`<tr>
                <td><a class="mono" href=${paths.trace(t.traceId)} aria-label=${format(s.openTrace, { id: t.traceId })}>${t.traceId}</a></td>
                <td class="text">${t.query ?? s.notSet}</td>
                <td>${t.createdAt === null ? s.notSet : dateTime(t.createdAt, locale)}</td>
                <td>${t.rank}</td>
                <td>${t.weight.toFixed(2)}</td>
                <td class="text">
                  ${evidenceWords(t.evidenceCodes, s).join('; ')}
                  ${t.corrections.map((c) => html`<p class="correction"><span class="muted">${s.userCorrection}</span> <q>${c}</q></p>`)}
                </td>
              </tr>`,
            )}
          </tbody>
        </table>`
    }
  </section>`;
}
