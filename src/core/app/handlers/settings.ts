import { checkServiceAddress } from '../../../shared/service-access';
import { isApiError, refusesTheKey } from '../../api';
import { AppError } from '../errors';
import { assertSendableKey, keyStatusFor } from '../keys';
import type { ServiceSession } from '../service';
import type { AppContext, DomainHandlers } from './context';

/** A free, harmless question for testConnection: resolving a channel id needs the key and costs nothing. */
const PROBE_CHANNEL_ID = 'UCBR8-60-B28hp2BmDPdntcQ';

/** Settings, the service's address and the key (shared/contract/settings.ts). */
export function settingsHandlers(
  ctx: AppContext,
): DomainHandlers<
  | 'getSettings'
  | 'updateSettings'
  | 'addressInUse'
  | 'keyStatus'
  | 'setKey'
  | 'removeKey'
  | 'checkService'
  | 'testConnection'
> {
  return {
    getSettings: async () => ctx.settings.read(),

    updateSettings: async (change) => {
      const addressProblem = change.serviceUrl ? checkServiceAddress(change.serviceUrl) : null;
      if (addressProblem !== null)
        throw new AppError('invalid_input', `${addressProblem} Nothing was saved.`);
      const settings = ctx.settings.update(change);
      if (change.keepCurrent !== undefined) ctx.rescheduleSyncs();
      if (change.serviceUrl !== undefined) ctx.setupChanged();
      if (change.updates !== undefined) ctx.updates.checkingChanged(settings.updates.check);
      return settings;
    },

    addressInUse: async () => ctx.addressInUse(),

    keyStatus: async () => keyStatusFor(ctx.keys, ctx.serviceUrl()),

    setKey: async ({ key }) => {
      assertSendableKey(key);
      const serviceUrl = ctx.serviceUrl();
      if (serviceUrl === undefined) {
        throw new AppError(
          'invalid_input',
          'Set the service address first: the key is only ever sent to the address it is saved with.',
        );
      }
      ctx.keys.save(key, serviceUrl);
      ctx.setupChanged();
      return keyStatusFor(ctx.keys, serviceUrl);
    },

    removeKey: async () => ctx.keys.remove(),

    checkService: async () => {
      await ctx.openSession().close();
      return null;
    },

    testConnection: async () => testConnection(ctx),
  };
}

/**
 * Asks the service something free with the key and address in force, and says how it went, in the
 * words of Settings, where it is asked: what is missing, never "enter it in Settings".
 */
async function testConnection(ctx: AppContext): Promise<{ ok: boolean; message: string }> {
  const serviceUrl = ctx.serviceUrl();
  if (serviceUrl === undefined) return { ok: false, message: 'No service address is set. Nothing was sent.' };
  const key = keyStatusFor(ctx.keys, serviceUrl);
  if (!key.set) return { ok: false, message: `${key.message} Nothing was sent.` };
  let session: ServiceSession;
  try {
    session = ctx.openSession();
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  try {
    await session.client.channelResolve(PROBE_CHANNEL_ID, AbortSignal.timeout(15_000));
    return { ok: true, message: `Connected to ${session.host}: the service accepted the key.` };
  } catch (error) {
    return { ok: false, message: describeConnectionFailure(error) };
  } finally {
    await session.close();
  }
}

function describeConnectionFailure(error: unknown): string {
  if (!isApiError(error)) return error instanceof Error ? error.message : String(error);
  if (refusesTheKey(error.status)) {
    return `The service refused the key (HTTP ${error.status}): check it and save it again.`;
  }
  return error.message;
}
