import type { CitationFields, CitationProblems } from '../lib/citation-fields';
import { TextAreaField, TextField } from './FormFields';

const AUTHORS_HELP =
  'One a line: “Given Family” or “Family, Given”, then an ORCID iD if you have one (0000-0002-1825-0097).';
const LICENSE_HELP =
  'An SPDX id for what you made (the tables, the datasheet), such as CC-BY-4.0 or CC0-1.0. The transcripts stay their owners’.';

interface CitationFieldsetProps {
  idPrefix: string;
  fields: CitationFields;
  problems: CitationProblems;
  /** Only authors and license: what Settings keeps as defaults. */
  defaultsOnly?: boolean;
  onChange(change: Partial<CitationFields>): void;
}

/**
 * Who made a corpus and under what terms: written into CITATION.cff, datapackage.json and the
 * datasheet before the checksums, so that nobody edits the ZIP afterwards.
 */
export function CitationFieldset({
  idPrefix,
  fields,
  problems,
  defaultsOnly = false,
  onChange,
}: CitationFieldsetProps) {
  return (
    <fieldset className="citation-fields">
      <legend>{defaultsOnly ? 'Your name on every corpus' : 'Your name on the corpus'}</legend>
      {!defaultsOnly && (
        <>
          <TextField
            id={`${idPrefix}-title`}
            label="Corpus title"
            help="Left empty, the title is made from the job’s sources."
            value={fields.title}
            problem={problems.title}
            onChange={(title) => onChange({ title })}
          />
          <TextAreaField
            id={`${idPrefix}-description`}
            label="Description"
            help="What the corpus is for, in your words: the datasheet’s motivation."
            value={fields.description}
            problem={problems.description}
            onChange={(description) => onChange({ description })}
          />
        </>
      )}
      <TextAreaField
        id={`${idPrefix}-authors`}
        label="Authors"
        help={AUTHORS_HELP}
        value={fields.authors}
        problem={problems.authors}
        onChange={(authors) => onChange({ authors })}
      />
      <TextField
        id={`${idPrefix}-license`}
        label="License"
        help={LICENSE_HELP}
        value={fields.license}
        problem={problems.license}
        onChange={(license) => onChange({ license })}
      />
    </fieldset>
  );
}
