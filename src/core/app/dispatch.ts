import { z } from 'zod';
import { commandNames, commands, type Answer, type CommandName } from '../../shared/contract';
import { AppError, toAppError } from './errors';
import type { AppHandlers } from './handlers';

const NAMES: ReadonlySet<string> = new Set(commandNames);

/**
 * Whether every answer is checked against the command's output schema: in development and tests
 * (NODE_ENV `development`, as `npm run dev` sets it, or `test`, as vitest and the tests' child
 * processes set it), so that a handler answering a shape the contract does not allow fails loudly
 * there. Not in a build users run, where the types already hold the answers and a check could only
 * turn a slip into a failed command.
 */
export const CHECKS_OUTPUTS = ['development', 'test'].includes(process.env['NODE_ENV'] ?? '');

export function isCommandName(name: string): name is CommandName {
  return NAMES.has(name);
}

/**
 * The one door every transport (Electron IPC, browser mode's HTTP, the CLI in process) goes through:
 * parses the input with the contract's schema, runs the handler, and answers with its output (checked
 * against the contract in development and tests, CHECKS_OUTPUTS) or a typed error, never a bare
 * message. Nothing runs on an input that does not parse.
 */
export async function dispatch(
  handlers: AppHandlers,
  name: string,
  input: unknown,
): Promise<Answer<unknown>> {
  try {
    if (!isCommandName(name)) throw new AppError('invalid_input', `There is no command named "${name}".`);
    const parsed = commands[name].input.safeParse(input ?? {});
    if (!parsed.success) {
      // A check of our own words why (a bad ORCID iD, a line too long); zod's own words are not for users.
      const issue = parsed.error.issues[0];
      const why = issue?.code === 'custom' ? issue.message : 'its input was not valid';
      throw new AppError('invalid_input', `Scriptorium refused the ${name} request: ${why}.`);
    }
    const handler = handlers[name] as (input: unknown) => Promise<unknown>;
    const value = await handler(parsed.data);
    if (CHECKS_OUTPUTS) checkOutput(name, value);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: toAppError(error).toData() };
  }
}

/** Refuses an answer the contract does not allow: a bug of the handler's, told with what is wrong. */
function checkOutput(name: CommandName, value: unknown): void {
  const checked = commands[name].output.safeParse(value);
  if (!checked.success)
    throw new AppError(
      'internal',
      `The ${name} command answered what the contract does not allow, a bug of Scriptorium's: ${z.prettifyError(checked.error)}`,
    );
}
