import type { ChangeEvent, ReactNode } from 'react';

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

/** What every typed control of a Field carries: its value, what describes it, whether it is invalid. */
function controlProps({ id, value, problem, onChange }: InputFieldProps, describedBy: string) {
  return {
    id,
    value,
    'aria-describedby': describedBy,
    'aria-invalid': problem !== undefined,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(event.target.value),
  };
}

/** Words the browser should neither correct nor complete. */
const VERBATIM = { spellCheck: false, autoComplete: 'off' } as const;

/**
 * A line of text the browser should not correct (patterns, positions); `type` for an address or a
 * secret (the service's address, the API key).
 */
export function TextField({
  type = 'text',
  ...props
}: InputFieldProps & { type?: 'text' | 'url' | 'password' }) {
  const { id, label, help, problem } = props;
  return (
    <Field id={id} label={label} help={help} problem={problem}>
      {(describedBy) => <input type={type} {...VERBATIM} {...controlProps(props, describedBy)} />}
    </Field>
  );
}

/** Lines of text, such as names one a line. */
export function TextAreaField({ rows = 3, ...props }: InputFieldProps & { rows?: number }) {
  const { id, label, help, problem } = props;
  return (
    <Field id={id} label={label} help={help} problem={problem}>
      {(describedBy) => <textarea rows={rows} {...VERBATIM} {...controlProps(props, describedBy)} />}
    </Field>
  );
}

interface NumberFieldProps extends InputFieldProps {
  min: number;
  max?: number;
  /** Whole numbers unless told otherwise. */
  step?: number | 'any';
}

export function NumberField({ min, max, step = 1, ...props }: NumberFieldProps) {
  const { id, label, help, problem } = props;
  return (
    <Field id={id} label={label} help={help} problem={problem}>
      {(describedBy) => (
        <input
          type="number"
          inputMode={step === 1 ? 'numeric' : 'decimal'}
          min={min}
          max={max}
          step={step}
          {...controlProps(props, describedBy)}
        />
      )}
    </Field>
  );
}

/**
 * A day typed as YYYY-MM-DD, or '' when none is set. A text field, not the browser's date input,
 * whose day, month and year are three stops of the Tab key each.
 */
export function DateField(props: InputFieldProps) {
  const { id, label, help, problem } = props;
  return (
    <Field id={id} label={label} help={help} problem={problem}>
      {(describedBy) => (
        <input
          type="text"
          inputMode="numeric"
          placeholder="YYYY-MM-DD"
          maxLength={10}
          {...VERBATIM}
          {...controlProps(props, describedBy)}
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
