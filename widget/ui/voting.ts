import { html } from 'lit';
import type { Vote } from '../session.ts';
import type { VotingStrings } from '../strings.ts';
import type { FeedbackActions } from './host.ts';

const thumb = html`<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M8.8 1.2a1 1 0 0 1 1.6.9l-.6 3.4h3.3a1.5 1.5 0 0 1 1.5 1.8l-1 5A1.5 1.5 0 0 1 12.1 13H5V6.3zM1 6.5h2.5V13H1z"/></svg>`;
const flipped = html`<span class="flip">${thumb}</span>`;

/** Thumbs up/down, or 1-5 stars in rating mode, after their group's label. */
export function renderVoting(feedback: FeedbackActions, s: VotingStrings, ratingMode: boolean, vote: Vote, rating: number | null) {
  const label = ratingMode ? s.ratingGroup : s.feedbackGroup;
  return html`<div class="bar" part="bar" role="group" aria-label=${label}>
    <span class="label" aria-hidden="true">${label}</span>
    ${
      ratingMode
        ? [1, 2, 3, 4, 5].map(
            (n) => html`<button
              part="button star"
              class="icon"
              aria-pressed=${rating !== null && n <= rating}
              aria-label=${s.stars.replace('{n}', String(n))}
              @click=${() => feedback.rate(n)}
            >
              ${n}
            </button>`,
          )
        : html`<button part="button vote-up" class="icon" aria-pressed=${vote === 'up'} aria-label=${s.thumbsUp} title=${s.thumbsUp} @click=${() => feedback.castVote('up')}>
              ${thumb}
            </button>
            <button part="button vote-down" class="icon" aria-pressed=${vote === 'down'} aria-label=${s.thumbsDown} title=${s.thumbsDown} @click=${() => feedback.castVote('down')}>
              ${flipped}
            </button>`
    }
  </div>`;
}
