/** Fills `{name}` placeholders in `text` from `values`; unknown ones are left as they are. */
export const fillPlaceholders = (text: string, values: Record<string, string | number> = {}): string =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
