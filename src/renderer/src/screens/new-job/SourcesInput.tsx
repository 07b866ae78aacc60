import { newJobStore, useNewJob } from '../../stores';
import { addFile } from '../../shell/useWindowDrop';

/** The paste box, and a file of sources chosen or dropped. */
export function SourcesInput() {
  const text = useNewJob((state) => state.text);
  const added = useNewJob((state) => state.added);
  return (
    <div className="field sources-field">
      <label htmlFor="sources">Sources</label>
      <p id="sources-help" className="help">
        One per line: a video, playlist or channel address or ID, a channel @handle, or search: followed by
        words. Blank lines and lines starting with # are left out.
      </p>
      <textarea
        id="sources"
        className="sources"
        rows={10}
        spellCheck={false}
        autoComplete="off"
        value={text}
        aria-describedby="sources-help sources-summary"
        onChange={(event) => newJobStore.getState().setText(event.target.value)}
      />
      <div className="file-drop">
        <input
          id="sources-file"
          className="visually-hidden file-input"
          type="file"
          accept=".txt,.csv,text/plain,text/csv"
          multiple
          onChange={(event) => {
            const input = event.target;
            for (const file of input.files ?? []) void addFile(file);
            input.value = '';
          }}
        />
        <label htmlFor="sources-file" className="button">
          Add sources from a file…
        </label>
        <span className="help">
          Or drop a text or CSV file (its first column is read), or a link dragged from your browser, anywhere
          on this window.
        </span>
      </div>
      <p className={added ? 'message message-info' : 'visually-hidden'} role="status">
        {added}
      </p>
    </div>
  );
}
