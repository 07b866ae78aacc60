import {
  AppImageUpdater,
  DebUpdater,
  MacUpdater,
  NsisUpdater,
  RpmUpdater,
  type AppUpdater,
} from 'electron-updater';
import type { PackageKind } from './installation';

/** electron-updater's updater for this kind of package, reading app-update.yml (the release feed). */
export function updaterFor(kind: PackageKind): AppUpdater {
  switch (kind) {
    case 'nsis':
      return quiet(new NsisUpdater());
    case 'appimage':
      return quiet(new AppImageUpdater());
    case 'mac':
      return quiet(new MacUpdater());
    case 'deb':
      return quiet(new DebUpdater());
    case 'rpm':
      return quiet(new RpmUpdater());
  }
}

/**
 * An updater that sends nothing but its requests for the release, and logs nothing (what happens is
 * the app's update status). electron-updater adds to every request for the release feed a random
 * id of this installation, kept in the data folder (x-user-staging-id), for servers that roll a
 * release out to a share of users; GitHub has no use for it, and the app sends no such thing.
 */
export function quiet<U extends AppUpdater>(updater: U): U {
  updater.logger = null;
  const finalHeaders = updater as unknown as {
    computeFinalHeaders(headers: Record<string, string>): Record<string, string>;
  };
  const withStagingId = finalHeaders.computeFinalHeaders.bind(updater);
  finalHeaders.computeFinalHeaders = (headers) => {
    const { ['x-user-staging-id']: _stagingId, ...rest } = withStagingId(headers);
    return rest;
  };
  return updater;
}
