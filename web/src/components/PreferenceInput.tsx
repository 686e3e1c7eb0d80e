import {
  choicesOf,
  humanize,
  InformationSource,
  MULTI_CHOICE_FIELDS,
  PREFERENCE_LABELS,
  PreferenceChoices,
  PreferenceField,
} from '../preferences';

interface PreferenceInputProps {
  field: PreferenceField;
  value: unknown;
  choices: PreferenceChoices;
  onChange: (value: unknown) => void;
  error?: string;
}

/**
 * One preference, as the kind of input its values need: a select for a single choice, a group of
 * checkboxes for several, a priority per source for the information sources, text for the
 * watchlist. The API's message for the field is shown under it and tied to it.
 */
export function PreferenceInput({ field, value, choices, onChange, error }: PreferenceInputProps) {
  const id = `preference-${field}`;
  const errorId = `${id}-error`;
  const invalid = error ? true : undefined;
  const described = error ? errorId : undefined;
  const message = error && (
    <small id={errorId} className="error" role="alert">
      {error}
    </small>
  );
  const options = choicesOf(choices, field);

  if (MULTI_CHOICE_FIELDS.has(field)) {
    const selected = new Set(value as string[]);
    return (
      <fieldset className="field choices" aria-invalid={invalid} aria-describedby={described}>
        <legend>{PREFERENCE_LABELS[field]}</legend>
        {options.map((option) => (
          <label key={option} className="choice">
            <input
              type="checkbox"
              checked={selected.has(option)}
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? options.filter((candidate) => selected.has(candidate) || candidate === option)
                    : [...selected].filter((candidate) => candidate !== option),
                )
              }
            />
            {humanize(option)}
          </label>
        ))}
        {message}
      </fieldset>
    );
  }

  if (field === 'information_sources') {
    const sources = value as InformationSource[];
    const priorityOf = (type: string) => sources.find((source) => source.type === type)?.priority;
    const setPriority = (type: InformationSource['type'], priority: string) => {
      const others = sources.filter((source) => source.type !== type);
      onChange(
        (priority === '' ? others : [...others, { type, priority: Number(priority) }]).sort(
          (left, right) => left.priority - right.priority,
        ),
      );
    };
    return (
      <fieldset className="field choices" aria-invalid={invalid} aria-describedby={described}>
        <legend>{PREFERENCE_LABELS[field]}</legend>
        <small className="hint">1 is read first; each priority once.</small>
        {options.map((type) => (
          <label key={type} className="choice">
            <select
              value={priorityOf(type) ?? ''}
              onChange={(event) => setPriority(type as InformationSource['type'], event.target.value)}
              aria-label={`Priority of ${humanize(type)}`}
            >
              <option value="">not used</option>
              {options.map((_, position) => (
                <option key={position} value={position + 1}>
                  {position + 1}
                </option>
              ))}
            </select>
            {humanize(type)}
          </label>
        ))}
        {message}
      </fieldset>
    );
  }

  return (
    <div className="field">
      <label htmlFor={id}>{PREFERENCE_LABELS[field]}</label>
      {field === 'watchlist' ? (
        <input
          id={id}
          value={String(value ?? '')}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={invalid}
          aria-describedby={described}
        />
      ) : (
        <select
          id={id}
          value={String(value ?? '')}
          onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}
          aria-invalid={invalid}
          aria-describedby={described}
        >
          {field === 'brokerage_platform' && <option value="">none</option>}
          {options.map((option) => (
            <option key={option} value={option}>
              {humanize(option)}
            </option>
          ))}
        </select>
      )}
      {message}
    </div>
  );
}
