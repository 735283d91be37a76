/** The collector's version, reported by /v1/health. */
export const VERSION = '0.1.0';
