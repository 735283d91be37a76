// package.json is the one place the version is written; bundlers keep only this field.
import { version } from '../package.json';

/** The product's version: reported by the collector's /v1/health and sent with every widget event. */
export const VERSION: string = version;
