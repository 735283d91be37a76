/** Sent with every event, to tell a bug in one release from a real signal. */
export const WIDGET_VERSION = '0.1.0';
