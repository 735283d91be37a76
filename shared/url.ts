/** `base` + `path` with exactly one slash between them, whatever the base ends with. */
export const joinUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
