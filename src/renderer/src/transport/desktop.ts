import { unwrap } from '../../../shared/client';
import type { DesktopApi, DesktopBridge } from '../../../shared/desktop';

/** The desktop bridge as the screens use it: a refusal rejects with its ContractError, as a command's does. */
export function desktopApi(bridge: DesktopBridge): DesktopApi {
  return {
    chooseExportPath: async (suggestedName) => unwrap(await bridge.chooseExportPath(suggestedName)),
    showInFolder: async (path) => unwrap(await bridge.showInFolder(path)),
    // Reviewed: a request to the main process, which opens https links only (openInBrowser).
    openExternal: async (url) => unwrap(await bridge.openExternal(url)), // eng-disable OPEN_EXTERNAL_JS_CHECK
  };
}
