import { ExportError, ExportTargetError } from '../core/export';
import { NewerSchemaError } from '../core/store';
import { CliExit, exitCodeFor, ExitCode } from './exit';

/** Every non-zero exit ends with one plain-language line: what happened and what to do. */
export function describeFailure(error: unknown): { code: number; message: string } {
  if (error instanceof CliExit) return { code: error.code, message: error.message };
  // Typed errors carry their code and a message that already says what to do.
  if (error instanceof ExportTargetError) return { code: exitCodeFor(error.code), message: error.message };
  // Refused before anything was sent: the database belongs to a newer Scriptorium.
  if (error instanceof NewerSchemaError) return { code: ExitCode.badInput, message: error.message };
  // The job is saved; only the ZIP could not be written, and its message says why and what to do.
  if (error instanceof ExportError) {
    return {
      code: 1,
      message: `${error.message} The job is saved: run the same command again to write the ZIP.`,
    };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return {
    code: 1,
    message: `Scriptorium stopped on an unexpected error: ${detail}. Progress is saved; please report this if it happens again.`,
  };
}
