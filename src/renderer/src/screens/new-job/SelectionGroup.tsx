import { Choice, DateField, NumberField, TextField } from '../../components/FormFields';
import { readSelectionFields } from '../../lib/selection-fields';
import { newJobStore, useNewJob } from '../../stores';

const ID = 'selection';

/**
 * Which videos of each list the job takes: the job's filters. Each problem shows under its field as
 * it is typed; Preview and Start refuse while one stands.
 */
export function SelectionGroup() {
  const selection = useNewJob((state) => state.selection);
  const read = readSelectionFields(selection);
  const problems = read.ok ? {} : read.problems;
  const set = newJobStore.getState().setSelection;

  return (
    <fieldset className="selection" aria-describedby={`${ID}-help`}>
      <legend>Selection</legend>
      <p id={`${ID}-help`} className="help">
        Which videos of each playlist, channel or search to take; leave a field empty to take them all. A
        video left out costs nothing. A video given by itself is always taken.
      </p>
      <div className="selection-fields">
        <TextField
          id={`${ID}-match`}
          label="Title matches"
          help="A regular expression the title must match, ignoring case, e.g. lecture|seminar."
          value={selection.matchTitle}
          problem={problems.matchTitle}
          onChange={(matchTitle) => set({ matchTitle })}
        />
        <TextField
          id={`${ID}-reject`}
          label="Title does not match"
          help="Videos whose title matches this regular expression are left out, e.g. trailer|teaser."
          value={selection.rejectTitle}
          problem={problems.rejectTitle}
          onChange={(rejectTitle) => set({ rejectTitle })}
        />
        <NumberField
          id={`${ID}-shortest`}
          label="Shortest (minutes)"
          help="Shorter videos are left out. A video whose list gives no length is kept."
          min={0}
          step="any"
          value={selection.shortestMinutes}
          problem={problems.shortestMinutes}
          onChange={(shortestMinutes) => set({ shortestMinutes })}
        />
        <NumberField
          id={`${ID}-longest`}
          label="Longest (minutes)"
          help="Longer videos are left out."
          min={0}
          step="any"
          value={selection.longestMinutes}
          problem={problems.longestMinutes}
          onChange={(longestMinutes) => set({ longestMinutes })}
        />
        <DateField
          id={`${ID}-after`}
          label="Published after"
          help="Videos published on this day or later. Lists give some dates as “3 weeks ago”: those are approximate."
          value={selection.publishedAfter}
          problem={problems.publishedAfter}
          onChange={(publishedAfter) => set({ publishedAfter })}
        />
        <DateField
          id={`${ID}-before`}
          label="Published before"
          help="Videos published on this day or earlier."
          value={selection.publishedBefore}
          problem={problems.publishedBefore}
          onChange={(publishedBefore) => set({ publishedBefore })}
        />
        <TextField
          id={`${ID}-positions`}
          label="Positions"
          help="Which places in each list, e.g. 1-50,100,-10: takes the first 50, the 100th and the last 10 (-1 is the last)."
          value={selection.positions}
          problem={problems.positions}
          onChange={(positions) => set({ positions })}
        />
      </div>
      <Choice
        id={`${ID}-captioned`}
        label="Skip videos without captions"
        help="As the list says. Off by default: the list is not always right, and asking for a video that has no captions costs nothing."
        checked={selection.skipUncaptioned}
        onChange={(skipUncaptioned) => set({ skipUncaptioned })}
      />
    </fieldset>
  );
}
