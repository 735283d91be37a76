/** The product's version: reported by the collector's /v1/health and sent with every widget event. */
export const VERSION = '0.1.0';
