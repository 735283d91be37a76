/** `base` + `path` with exactly one slash between them, whatever the base ends with. */
export const joinUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;

/** A percent-encoded part of a URL decoded, or undefined when it is not percent-encoded UTF-8 (`caf%C3`). */
export function decodedOrUndefined(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
