import { useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { describeError } from '../../lib/errors';

/** How a form's fields read: the value to save, or the problems to mark next to the fields. */
export type FieldsReading<Value, Problems> = { ok: true; value: Value } | { ok: false; problems: Problems };

interface SettingsFormOptions<Fields, Value, Problems> {
  initial: () => Fields;
  read(fields: Fields): FieldsReading<Value, Problems>;
  /** Said under the form when a field is marked; null when the marks say enough. */
  invalid: string | null;
  /** Saves the value; resolves with what to say once saved. */
  write(value: Value, fields: Fields): Promise<string>;
}

/**
 * A Settings section's form: the fields as typed, read on Save, their problems marked, and then
 * either what was saved or why it was not.
 */
export function useSettingsForm<Fields extends object, Value, Problems extends object>({
  initial,
  read,
  invalid,
  write,
}: SettingsFormOptions<Fields, Value, Problems>) {
  const [fields, setFields] = useState(initial);
  const [problems, setProblems] = useState<Partial<Problems>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState('');

  const change = (part: Partial<Fields>) => setFields((current) => ({ ...current, ...part }));
  const save = async () => {
    setDone('');
    const reading = read(fields);
    if (!reading.ok) {
      setProblems(reading.problems);
      setProblem(invalid);
      return;
    }
    setProblems({});
    setProblem(null);
    try {
      setDone(await write(reading.value, fields));
    } catch (error) {
      setProblem(describeError(error).message);
    }
  };
  return { fields, change, problems, save, outcome: <SaveOutcome done={done} problem={problem} /> };
}

/** What a Save did: said politely when it saved, shown as an error when it could not. */
function SaveOutcome({ done, problem }: { done: string; problem: string | null }) {
  return (
    <>
      <p role="status" className={done ? 'message message-success' : 'visually-hidden'}>
        {done}
      </p>
      <ErrorMessage error={problem} />
    </>
  );
}
