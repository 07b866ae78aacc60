import { commandNames, commands, type Answer, type CommandName } from '../../shared/contract';
import { AppError, toAppError } from './errors';
import type { AppHandlers } from './handlers';

const NAMES: ReadonlySet<string> = new Set(commandNames);

export function isCommandName(name: string): name is CommandName {
  return NAMES.has(name);
}

/**
 * The one door every transport (Electron IPC, browser mode's HTTP) goes through: parses the input
 * with the contract's schema, runs the handler, and answers with its output or a typed error,
 * never a bare message. Nothing runs on an input that does not parse.
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
    return { ok: true, value: await handler(parsed.data) };
  } catch (error) {
    return { ok: false, error: toAppError(error).toData() };
  }
}
