import { CHUNK_SECONDS, CONCURRENCY, EXPORT_FORMATS, type ExportFormat } from '../../../shared/vocabulary';
import type { OptionFields as Fields, OptionProblems } from '../lib/job-options';
import { Choice, NumberField, TextField } from './FormFields';

/** Each file format's name and what it holds: New job, Settings' defaults and the Export dialog say the same. */
export const FORMAT_NAMES: Readonly<Record<ExportFormat, { label: string; help: string }>> = {
  txt: { label: 'TXT', help: 'plain text' },
  json: { label: 'JSON', help: 'segments with their times' },
  srt: { label: 'SRT', help: 'subtitles' },
  vtt: { label: 'VTT', help: 'web subtitles' },
  chunks: {
    label: 'Chunks',
    help: 'passages for search and language models, in chunks.jsonl',
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

  return (
    <div className="option-fields">
      <TextField
        id={id('languages')}
        label="Languages"
        help="Tried in order for each video, e.g. es,en,orig. orig is the video's original track; a language a video lacks costs nothing."
        value={fields.languages}
        problem={problems.languages}
        onChange={(languages) => onChange({ languages })}
      />

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

      <FormatFields id={id} fields={fields} problems={problems} onChange={onChange} />

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
          help={`Requests at once, ${CONCURRENCY.min} to ${CONCURRENCY.max}.`}
          min={CONCURRENCY.min}
          max={CONCURRENCY.max}
          value={fields.concurrency}
          problem={problems.concurrency}
          onChange={(concurrency) => onChange({ concurrency })}
        />
      </div>
    </div>
  );
}

interface FormatFieldsProps extends Omit<OptionFieldsProps, 'idPrefix'> {
  id(name: string): string;
}

/** Which files the ZIP holds, with the chunks' length and overlap when chunks are chosen. */
function FormatFields({ id, fields, problems, onChange }: FormatFieldsProps) {
  const toggleFormat = (format: ExportFormat, on: boolean) =>
    onChange({
      formats: on ? [...fields.formats, format] : fields.formats.filter((chosen) => chosen !== format),
    });
  return (
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
      {fields.formats.includes('chunks') && (
        <div className="chunk-fields">
          <NumberField
            id={id('chunk-seconds')}
            label="Chunk length (s)"
            help={`Each passage, ${CHUNK_SECONDS.min} to ${CHUNK_SECONDS.max} seconds.`}
            min={CHUNK_SECONDS.min}
            max={CHUNK_SECONDS.max}
            value={fields.chunkSeconds}
            problem={problems.chunkSeconds}
            onChange={(chunkSeconds) => onChange({ chunkSeconds })}
          />
          <NumberField
            id={id('chunk-overlap')}
            label="Chunk overlap (s)"
            help="What the next passage repeats, so that no sentence is cut off."
            min={0}
            max={CHUNK_SECONDS.max}
            value={fields.chunkOverlap}
            problem={problems.chunkOverlap}
            onChange={(chunkOverlap) => onChange({ chunkOverlap })}
          />
        </div>
      )}
      {problems.formats && (
        <p id={id('formats-problem')} className="field-problem">
          {problems.formats}
        </p>
      )}
    </fieldset>
  );
}
