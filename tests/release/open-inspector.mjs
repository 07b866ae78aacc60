#!/usr/bin/env node
// `node tests/release/open-inspector.mjs`: opens the Node inspector fuse of the installed app that
// SCRIPTORIUM_APP names, which Playwright's Electron support attaches through. Run on the copy the
// release workflow tests, never on a package that ships: the shipped fuses keep it closed.
import { FuseV1Options, FuseVersion, flipFuses } from '@electron/fuses';

const app = process.env.SCRIPTORIUM_APP;
if (!app) {
  console.error('open-inspector: SCRIPTORIUM_APP must name the installed app’s executable.');
  process.exit(2);
}
await flipFuses(app, {
  version: FuseVersion.V1,
  // Flipping a fuse breaks a macOS signature: the copy under test is signed ad hoc again.
  resetAdHocDarwinSignature: process.platform === 'darwin',
  [FuseV1Options.EnableNodeCliInspectArguments]: true,
});
console.log(`open-inspector: Playwright can attach to ${app}.`);
