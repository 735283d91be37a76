/**
 * Why a thumbs-down happened: the four choices of the attribution popover, or "other". Apart from
 * the event schema, so the widget can hold an argument to them without loading the validator.
 */
export const ATTRIBUTION_REASONS = ['not_answered', 'incomplete', 'looks_wrong', 'wrong_source', 'other'] as const;

export type AttributionReason = (typeof ATTRIBUTION_REASONS)[number];
