import type { ReactNode } from 'react';

interface FieldProps {
  id: string;
  label: string;
  help: string;
  problem: string | undefined;
  /** Renders the control, given the ids that describe it. */
  children(describedBy: string): ReactNode;
}

/** A labelled control with its help below it and, while one stands, its problem. */
export function Field({ id, label, help, problem, children }: FieldProps) {
  const describedBy = [`${id}-help`, problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(describedBy)}
      <p id={`${id}-help`} className="help">
        {help}
      </p>
      {problem && (
        <p id={`${id}-problem`} className="field-problem">
          {problem}
        </p>
      )}
    </div>
  );
}

interface InputFieldProps {
  id: string;
  label: string;
  help: string;
  value: string;
  problem: string | undefined;
  onChange(value: string): void;
}

/** A line of text the browser should not correct (patterns, positions). */
export function TextField({ id, label, help, value, problem, onChange }: InputFieldProps) {
  return (
    <Field id={id} label={label} help={help} problem={problem}>
      {(describedBy) => (
        <input
          id={id}
          type="text"
          value={value}
          spellCheck={false}
          autoComplete="off"
          aria-describedby={describedBy}
          aria-invalid={problem !== undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

/** Lines of text, such as names one a line. */
export function TextAreaField({
  id,
  label,
  help,
  value,
  problem,
  rows = 3,
  onChange,
}: InputFieldProps & { rows?: number }) {
  return (
    <Field id={id} label={label} help={help} problem={problem}>
      {(describedBy) => (
        <textarea
          id={id}
          rows={rows}
          value={value}
          spellCheck={false}
          autoComplete="off"
          aria-describedby={describedBy}
          aria-invalid={problem !== undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

interface NumberFieldProps extends InputFieldProps {
  min: number;
  max?: number;
  /** Whole numbers unless told otherwise. */
  step?: number | 'any';
}

export function NumberField({
  id,
  label,
  help,
  min,
  max,
  step = 1,
  value,
  problem,
  onChange,
}: NumberFieldProps) {
  return (
    <Field id={id} label={label} help={help} problem={problem}>
      {(describedBy) => (
        <input
          id={id}
          type="number"
          inputMode={step === 1 ? 'numeric' : 'decimal'}
          min={min}
          max={max}
          step={step}
          value={value}
          aria-describedby={describedBy}
          aria-invalid={problem !== undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

/**
 * A day typed as YYYY-MM-DD, or '' when none is set. A text field, not the browser's date input,
 * whose day, month and year are three stops of the Tab key each.
 */
export function DateField({ id, label, help, value, problem, onChange }: InputFieldProps) {
  return (
    <Field id={id} label={label} help={help} problem={problem}>
      {(describedBy) => (
        <input
          id={id}
          type="text"
          inputMode="numeric"
          placeholder="YYYY-MM-DD"
          maxLength={10}
          spellCheck={false}
          autoComplete="off"
          value={value}
          aria-describedby={describedBy}
          aria-invalid={problem !== undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

interface ChoiceProps {
  id: string;
  label: string;
  help: string;
  checked: boolean;
  onChange(checked: boolean): void;
}

/** A checkbox named by its short label alone, with its explanation beside it. */
export function Choice({ id, label, help, checked, onChange }: ChoiceProps) {
  return (
    <div className="choice">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-describedby={`${id}-help`}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      <span id={`${id}-help`} className="help">
        {help}
      </span>
    </div>
  );
}
