import { ValidationIssue } from '../../../common/validation/validation-issue';
import { InformationSource } from '../preference-values';

export interface InformationSourceDuplicate {
  index: number;
  field: keyof InformationSource;
  value: string | number;
}

/**
 * Each element whose type or priority already appeared earlier in the list. The first
 * occurrence is the valid one, so a client sees exactly which later entries to change.
 */
export function findInformationSourceDuplicates(
  sources: readonly InformationSource[],
): InformationSourceDuplicate[] {
  const seenTypes = new Set<string>();
  const seenPriorities = new Set<number>();
  const duplicates: InformationSourceDuplicate[] = [];
  sources.forEach((source, index) => {
    if (seenTypes.has(source.type)) duplicates.push({ index, field: 'type', value: source.type });
    if (seenPriorities.has(source.priority)) {
      duplicates.push({ index, field: 'priority', value: source.priority });
    }
    seenTypes.add(source.type);
    seenPriorities.add(source.priority);
  });
  return duplicates;
}

/** The duplicates as 422 issues, each located at the offending element's field under `listLoc`. */
export function informationSourceDuplicateIssues(
  sources: readonly InformationSource[] | undefined,
  listLoc: (string | number)[],
): ValidationIssue[] {
  return findInformationSourceDuplicates(sources ?? []).map(({ index, field, value }) => {
    const error =
      field === 'type'
        ? `information source type '${value}' is listed more than once`
        : `priority ${value} is used by more than one information source`;
    return {
      loc: [...listLoc, index, field],
      msg: `Value error, ${error}`,
      type: 'value_error',
      ctx: { error },
    };
  });
}
