/** The same action on the same trace again within this window is a double click or submit. */
export const REPEAT_WINDOW_MS = 800;
