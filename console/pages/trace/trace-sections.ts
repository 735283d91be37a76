import { html, nothing } from 'lit';
import type { TraceEvent, TraceView } from '../../api/types.ts';
import { paths } from '../../app/router.ts';
import { dateTime, percent } from '../../i18n/locale.ts';
import { format, type Locale, type StringKey, type Strings } from '../../i18n/strings.ts';
import { highlighted } from '../../ui/highlighted.ts';
import { type ChunkRow, chunkRows } from './chunk-moves.ts';
import { findingWords } from './diagnosis-words.ts';

type Trace = NonNullable<TraceView['trace']>;
const num = (x: number | null | undefined, digits = 3) => (x === null || x === undefined ? '—' : x.toFixed(digits));

/**
 * A signal by its name in the reader's language, its code beside it as the API and the data name
 * it (as a noise rule's is); a type this console has no word for (a newer collector's) by its code alone.
 */
const signalName = (type: string, s: Strings) => {
  const code = html`<code class="name muted">${type}</code>`;
  const key = `signal_${type}`;
  return Object.hasOwn(s, key) ? html`<span class="signal">${s[key as StringKey]}</span> ${code}` : code;
};

export function renderDiagnosis(view: TraceView, s: Strings, locale: Locale) {
  return html`<section class="card diagnosis" aria-labelledby="diagnosis-title">
    <h2 id="diagnosis-title">${s.diagnosis}</h2>
    <ul data-field="diagnosis">
      ${view.diagnosis.map((f) => html`<li data-kind=${f.kind}>${findingWords(f, s, locale)}</li>`)}
    </ul>
  </section>`;
}

export function renderQuery(t: Trace, s: Strings, locale: Locale) {
  const row = (label: string, value: unknown) => html`<div><dt>${label}</dt><dd>${value ?? s.notSet}</dd></div>`;
  return html`<section class="card" aria-labelledby="query-title">
    <h2 id="query-title">${s.query}</h2>
    <p class="text query" data-field="query">${t.query}</p>
    <p><span class="muted">${s.rewrittenQuery}:</span> <span class="text" data-field="rewritten">${t.rewrittenQuery ?? s.noRewrite}</span></p>
    <h3>${s.retrievalParams}</h3>
    <dl class="facts meta">
      ${row(s.topK, t.topK)} ${row(s.threshold, t.threshold)} ${row(s.embeddingModel, t.embeddingModel)} ${row(s.model, t.model)}
      ${row(s.rerankerVersion, t.rerankerVersion)} ${row(s.intent, t.intent)} ${row(s.knowledgeBase, t.knowledgeBase)}
      ${row(s.createdAt, dateTime(t.createdAt, locale))} ${row(s.session, t.sessionId)} ${row(s.turn, t.turnIndex)}
    </dl>
  </section>`;
}

const moveWords = (row: ChunkRow, s: Strings) => {
  const m = row.move;
  if (!m) return s.notSet;
  if (m.kind === 'up') return html`<span class="up">▲ ${format(s.movedUp, { n: m.by })}</span>`;
  if (m.kind === 'down') return html`<span class="down">▼ ${format(s.movedDown, { n: m.by })}</span>`;
  return { same: s.unmoved, dropped: s.dropped, added: s.added }[m.kind];
};

export function renderChunks(view: TraceView, query: string, s: Strings) {
  const rows = chunkRows(view.retrievedChunks, view.rerankedChunks, view.citations);
  const stage = (x: ChunkRow['retrieved']) => (x ? html`<span class="rank">#${x.rank}</span> <span class="muted">${num(x.score)}</span>` : s.notSet);
  return html`<section class="card" aria-labelledby="chunks-title">
    <h2 id="chunks-title">${s.chunksTitle}</h2>
    ${view.rerankedChunks.length ? nothing : html`<p class="muted">${s.noReranker}</p>`}
    <div class="scroll"><table class="chunks">
      <thead>
        <tr>
          <th scope="col">${s.retrieved}</th>
          <th scope="col">${s.reranked}</th>
          <th scope="col">${s.movement}</th>
          <th scope="col">${s.chunk}</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (r) => html`<tr data-chunk=${r.chunkId}>
            <td>${stage(r.retrieved)}</td>
            <td>${stage(r.reranked)}</td>
            <td>${moveWords(r, s)}</td>
            <td>
              <details>
                <summary><span class="mono">${r.chunkId}</span> · <span class="mono">${r.sourceDocId}</span>${r.cited === null ? nothing : html` · <strong>${format(s.cited, { n: r.cited })}</strong>`}</summary>
                <p class="text chunk-text">${highlighted(r.text, query)}</p>
              </details>
            </td>
          </tr>`,
        )}
      </tbody>
    </table></div>
  </section>`;
}

export function renderAnswer(view: TraceView, t: Trace, s: Strings) {
  const chunk = (id: string) => view.rerankedChunks.find((c) => c.chunkId === id) ?? view.retrievedChunks.find((c) => c.chunkId === id);
  return html`<section class="card" aria-labelledby="answer-title">
    <h2 id="answer-title">${s.answer}</h2>
    <p class="text" data-field="answer">${t.answer}</p>
    <h3>${s.citations}</h3>
    ${
      view.citations.length
        ? html`<ul>
          ${view.citations.map((c) => html`<li>[${c.n}] <span class="mono">${c.chunkId}</span> · <span class="mono">${chunk(c.chunkId)?.sourceDocId ?? ''}</span></li>`)}
        </ul>`
        : html`<p class="muted">${s.noCitations}</p>`
    }
  </section>`;
}

function eventRows(events: TraceEvent[], traceId: string, s: Strings, locale: Locale, showTrace: boolean) {
  return events.map(
    (e) => html`<tr data-event=${e.eventId} class=${e.superseded ? 'superseded' : ''}>
      <td>${dateTime(e.clientTs, locale)}</td>
      ${showTrace ? html`<td><a class="mono" href=${paths.trace(e.traceId)}>${e.traceId}</a></td>` : nothing}
      <td>${signalName(e.signalType, s)}${e.superseded ? html` <span class="muted">(${s.superseded})</span>` : nothing}</td>
      <td>${num(e.signalValue, 2)}</td>
      <td>${e.confidence === null ? html`<span class="muted">${s.notAssessed}</span>` : percent(e.confidence)}</td>
      <td>
        ${e.rules.length ? html`<ul class="rules">${e.rules.map((r) => html`<li><code class="name">${r.rule}</code> <span class="text">${r.reason}</span></li>`)}</ul>` : s.notSet}
      </td>
      <td>
        ${
          e.attributedTraceId && e.attributedTraceId !== traceId
            ? html`<a href=${paths.trace(e.attributedTraceId)}>${format(s.attributedTo, { id: e.attributedTraceId })}</a>`
            : nothing
        }
        ${e.attribution ? html`<p class="text">${e.attribution.reason}</p>` : nothing}
      </td>
      <td class="text detail">${Object.keys(e.detail).length ? JSON.stringify(e.detail) : ''}</td>
    </tr>`,
  );
}

export function renderSignals(view: TraceView, traceId: string, s: Strings, locale: Locale) {
  const head = (showTrace: boolean) =>
    html`<thead><tr><th scope="col">${s.time}</th>${showTrace ? html`<th scope="col">${s.traceId}</th>` : nothing}<th scope="col">${s.signal}</th><th scope="col">${s.value}</th><th scope="col">${s.confidence}</th><th scope="col">${s.noiseRules}</th><th scope="col">${s.attribution}</th><th scope="col">${s.detail}</th></tr></thead>`;
  return html`<section class="card" aria-labelledby="signals-title">
      <h2 id="signals-title">${s.signals}</h2>
      ${view.events.length ? html`<div class="scroll"><table class="signals">${head(false)}<tbody>${eventRows(view.events, traceId, s, locale, false)}</tbody></table></div>` : html`<p class="muted">${s.noSignals}</p>`}
    </section>
    <section class="card" aria-labelledby="attribution-title">
      <h2 id="attribution-title">${s.attribution}</h2>
      ${
        view.attributedHere.length
          ? html`<h3>${s.attributedFrom}</h3>
            <div class="scroll"><table class="attributed">${head(true)}<tbody>${eventRows(view.attributedHere, traceId, s, locale, true)}</tbody></table></div>`
          : view.events.some((e) => e.attributedTraceId && e.attributedTraceId !== traceId)
            ? nothing
            : html`<p class="muted">${s.noAttribution}</p>`
      }
      ${renderCandidates(view, s)}
    </section>`;
}

/** The scores attribution gave the candidate turns, for the events that had a choice. */
function renderCandidates(view: TraceView, s: Strings) {
  const scored = [...view.events, ...view.attributedHere].filter((e) => e.attribution && e.attribution.scores.length > 1);
  if (!scored.length) return nothing;
  return html`<h3>${s.candidateScores}</h3>
    <ul>
      ${scored.map(
        (e) =>
          html`<li>${signalName(e.signalType, s)}: ${e.attribution!.scores.map((c, i) => html`${i ? ', ' : ''}<a class="mono" href=${paths.trace(c.traceId)}>${c.traceId}</a> ${c.score.toFixed(2)}`)}</li>`,
      )}
    </ul>`;
}

export function renderSession(view: TraceView, traceId: string, s: Strings, locale: Locale) {
  return html`<section class="card" aria-labelledby="session-title">
    <h2 id="session-title">${s.neighbours}</h2>
    ${
      view.session.length
        ? html`<ol class="session">
          ${view.session.map(
            (t) => html`<li>
              ${
                t.traceId === traceId
                  ? html`<strong class="text" aria-current="true">${t.query}</strong> <span class="muted">(${s.thisTurn})</span>`
                  : html`<a class="text" href=${paths.trace(t.traceId)}>${t.query}</a>`
              }
              <span class="muted">· ${s.turn} ${t.turnIndex ?? s.notSet} · ${dateTime(t.createdAt, locale)} · ${num(t.weightedScore, 2)}</span>
            </li>`,
          )}
        </ol>`
        : html`<p class="muted">${s.noSession}</p>`
    }
    ${
      view.reviewItems.length
        ? html`<h3>${s.navReview}</h3>
          <ul>
            ${view.reviewItems.map((i) => html`<li><a href=${paths.review({ status: i.status, item: i.id })}><span class="mono">${i.chunkId}</span></a> · ${s[`status_${i.status}`]}${i.verdict ? html` · ${s[`verdict_${i.verdict}`]}` : nothing}</li>`)}
          </ul>`
        : nothing
    }
  </section>`;
}
