import type { StringKey } from '../i18n/strings.ts';

/**
 * Sent on window before signing out: work under way that signing out would lose or cut short (a
 * review answer on its way, a note typed, an erasure running) names the question the reader is
 * asked first, and signing out goes on only if every one is answered yes.
 */
export class SigningOut extends Event {
  static readonly type = 'rf-signing-out';
  /** The questions to ask, by their words' key, each once. */
  readonly questions = new Set<StringKey>();

  constructor() {
    super(SigningOut.type);
  }

  /** Has the reader asked `question` before signing out. */
  ask(question: StringKey): void {
    this.questions.add(question);
  }
}
