import type { ReactNode } from 'react';
import { EXPORT_FORMATS, type ExportFormat } from '../../../shared/contract';
import { MAX_CONCURRENCY, type OptionFields as Fields, type OptionProblems } from '../lib/job-options';

const FORMAT_NAMES: Readonly<Record<ExportFormat, { label: string; help: string }>> = {
  txt: { label: 'TXT', help: 'plain text' },
  json: { label: 'JSON', help: 'segments with their times' },
  srt: { label: 'SRT', help: 'subtitles' },
  vtt: { label: 'VTT', help: 'web subtitles' },
  chunks: {
    label: 'Chunks',
    help: 'passages of about a minute in one chunks.jsonl, for search and language models',
  },
};

interface OptionFieldsProps {
  /** Makes the fields' ids unique on the page. */
  idPrefix: string;
  fields: Fields;
  problems: OptionProblems;
  onChange(change: Partial<Fields>): void;
}

/** The options of a job, shared by New job and by the defaults in Settings. */
export function OptionFields({ idPrefix, fields, problems, onChange }: OptionFieldsProps) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const toggleFormat = (format: ExportFormat, on: boolean) =>
    onChange({
      formats: on ? [...fields.formats, format] : fields.formats.filter((chosen) => chosen !== format),
    });

  return (
    <div className="option-fields">
      <Field
        id={id('languages')}
        label="Languages"
        problem={problems.languages}
        help="Tried in order for each video, e.g. es,en,orig. orig is the video's original track; a language a video lacks costs nothing."
      >
        {(describedBy) => (
          <input
            id={id('languages')}
            type="text"
            value={fields.languages}
            spellCheck={false}
            autoComplete="off"
            aria-describedby={describedBy}
            aria-invalid={problems.languages !== undefined}
            onChange={(event) => onChange({ languages: event.target.value })}
          />
        )}
      </Field>

      <fieldset className="choices">
        <legend>With each transcript</legend>
        <Choice
          id={id('timestamps')}
          label="Timestamps"
          help="the start and length of each line"
          checked={fields.includeTimestamp}
          onChange={(includeTimestamp) => onChange({ includeTimestamp })}
        />
        <Choice
          id={id('metadata')}
          label="Metadata"
          help="title, channel and date, at no extra cost"
          checked={fields.sendMetadata}
          onChange={(sendMetadata) => onChange({ sendMetadata })}
        />
      </fieldset>

      <fieldset className="choices" aria-describedby={problems.formats ? id('formats-problem') : undefined}>
        <legend>Files in the ZIP</legend>
        {EXPORT_FORMATS.map((format) => (
          <Choice
            key={format}
            id={id(`format-${format}`)}
            label={FORMAT_NAMES[format].label}
            help={FORMAT_NAMES[format].help}
            checked={fields.formats.includes(format)}
            onChange={(on) => toggleFormat(format, on)}
          />
        ))}
        {problems.formats && (
          <p id={id('formats-problem')} className="field-problem">
            {problems.formats}
          </p>
        )}
      </fieldset>

      <div className="number-fields">
        <NumberField
          id={id('max-videos')}
          label="Max videos per source"
          help="Empty: every video of each playlist or channel."
          min={1}
          value={fields.maxVideos}
          problem={problems.maxVideos}
          onChange={(maxVideos) => onChange({ maxVideos })}
        />
        <NumberField
          id={id('budget')}
          label="Budget (credits)"
          help="The job pauses once it has spent this much. Empty: no limit."
          min={0}
          value={fields.budget}
          problem={problems.budget}
          onChange={(budget) => onChange({ budget })}
        />
        <NumberField
          id={id('concurrency')}
          label="Concurrency"
          help={`Requests at once, 1 to ${MAX_CONCURRENCY}.`}
          min={1}
          max={MAX_CONCURRENCY}
          value={fields.concurrency}
          problem={problems.concurrency}
          onChange={(concurrency) => onChange({ concurrency })}
        />
      </div>
    </div>
  );
}

interface FieldProps {
  id: string;
  label: string;
  help: string;
  problem: string | undefined;
  /** Renders the control, given the ids that describe it. */
  children(describedBy: string): ReactNode;
}

function Field({ id, label, help, problem, children }: FieldProps) {
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

interface NumberFieldProps {
  id: string;
  label: string;
  help: string;
  min: number;
  max?: number;
  value: string;
  problem: string | undefined;
  onChange(value: string): void;
}

function NumberField({ id, label, help, min, max, value, problem, onChange }: NumberFieldProps) {
  return (
    <Field id={id} label={label} help={help} problem={problem}>
      {(describedBy) => (
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
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
function Choice({ id, label, help, checked, onChange }: ChoiceProps) {
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
