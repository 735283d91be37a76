import type * as v from 'valibot';
import { format, type Strings } from '../i18n/strings.ts';

/**
 * What the shared schema refused, in the console's language. The schema's own messages are
 * English for the API's callers; here each issue is read by its kind and requirement instead, so
 * both languages say the same thing. Kinds the console's forms cannot produce read as "not valid".
 */
export function issueText(issue: v.BaseIssue<unknown>, s: Strings): string {
  // A union reports why each option failed: the first option's reason is the one a form can fix.
  const reason = issue.type === 'union' && issue.issues?.length ? issue.issues[0] : issue;
  const requirement = String(reason.requirement ?? '');
  switch (reason.type) {
    case 'number':
    case 'finite':
      return s.issue_number;
    case 'integer':
    case 'safe_integer':
      return s.issue_integer;
    case 'min_value':
      return format(s.issue_min_value, { min: requirement });
    case 'max_value':
      return format(s.issue_max_value, { max: requirement });
    case 'min_length':
      return reason.requirement === 1 ? s.issue_empty : format(s.issue_min_length, { n: requirement });
    case 'min_entries':
      // A prompt's texts, every language left blank.
      return s.issue_empty;
    case 'max_length':
      return format(s.issue_max_length, { n: requirement });
    case 'regex':
      // The only pattern in the forms' schemas: ids (shared/schema/common.ts).
      return s.issue_id_characters;
    case 'picklist':
      return s.issue_picklist;
    case 'partial_check':
      // The settings' rules over whole values: good answers start at or above bad ones, aggregates
      // outlive raw rows, retraining comes every whole number of nights.
      switch (reason.path?.at(-1)?.key) {
        case 'aggregateRetentionDays':
          return s.issue_below_retention;
        case 'goodTraceScore':
          return s.issue_below_bad_score;
        case 'retrainEveryDays':
          return s.issue_integer;
        default:
          return s.issue_invalid;
      }
    case 'check_items':
      // The item rules in the forms' schemas: each prompt's id is its own, and each choice's within
      // its prompt (choices the form does not edit, kept as the API stored them).
      return reason.path?.some((item) => item.key === 'choices') ? s.issue_repeated_choice_id : s.issue_repeated_id;
    case 'not_value':
      // The only such rule: a choice may not take the id the widget's dismiss link answers.
      return s.issue_dismissed_choice_id;
    default:
      return s.issue_invalid;
  }
}
