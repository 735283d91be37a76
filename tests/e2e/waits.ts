/**
 * How long a console page in the browser tests may take to show what a test looks for, and so how
 * long a poll waits: a page's first content waits on the API, and a whole load on the server too,
 * which a busy 2-core machine running other test files beside this one can hold up for seconds;
 * and a request the local dev server leaves unanswered is asked again after 10 s (the project's
 * after 6 s), so two such in one load take some 16 s. A test that passes waits no longer for it.
 */
export const PAGE_WAIT_MS = 25_000;
