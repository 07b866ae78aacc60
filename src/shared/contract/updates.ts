import { z } from 'zod';
import { type CommandSchemas } from './values';

/**
 * How the app is told a newer release exists, and what it may do with it (docs/product.md,
 * Updates). `offer` is what this kind of package allows: `install`, the Windows installer, the
 * AppImage and a signed Mac app, which download the new version and replace themselves after the
 * user agrees; `download`, the deb, the rpm and an unsigned Mac app, for which the app only says
 * where the new package is and its checksum.
 */
export const UpdateStateSchema = z.discriminatedUnion('phase', [
  /** This copy does not look for updates: browser mode, the CLI, a checkout, a package without a feed. */
  z.object({ phase: z.literal('unsupported'), message: z.string() }),
  /** Settings' "Check for updates" is off. */
  z.object({ phase: z.literal('off') }),
  /** No newer release as of `checkedAt` (an ISO time), or none looked for yet (null). */
  z.object({ phase: z.literal('current'), checkedAt: z.string().nullable() }),
  z.object({ phase: z.literal('checking') }),
  z.object({
    phase: z.literal('available'),
    version: z.string(),
    offer: z.enum(['install', 'download']),
    /** The release's page, where its packages, notes and SHA256SUMS are. */
    releaseUrl: z.string(),
    /** The package of this kind in the release, with its SHA-512 (hex, as `sha512sum` prints it). */
    file: z.object({ name: z.string(), sha512: z.string(), size: z.number().int() }).nullable(),
  }),
  z.object({ phase: z.literal('downloading'), version: z.string(), percent: z.number().min(0).max(100) }),
  /** Downloaded and checked against its SHA-512: installed when the app restarts for it. */
  z.object({ phase: z.literal('downloaded'), version: z.string() }),
  z.object({ phase: z.literal('failed'), message: z.string() }),
]);

export const UpdateStatusSchema = z.object({
  /** The version running. */
  current: z.string(),
  state: UpdateStateSchema,
  /** Why nothing can be done now (a job is running); null when nothing stands in the way. */
  waiting: z.string().nullable(),
});

/**
 * Updates of the desktop app. Every command answers the status as it then is; one refused while a
 * job runs fails with `job_running`, and with `invalid_input` when the status does not allow it.
 */
export const updateCommands = {
  updateStatus: { input: z.object({}), output: UpdateStatusSchema },
  /** Looks for a newer release now (the app also does so by itself while "Check for updates" is on). */
  checkForUpdates: { input: z.object({}), output: UpdateStatusSchema },
  /** Downloads the release on offer (`install` only); its progress comes as `updateChanged`. */
  downloadUpdate: { input: z.object({}), output: UpdateStatusSchema },
  /** Quits and installs the downloaded release, which then starts. */
  installUpdate: { input: z.object({}), output: UpdateStatusSchema },
} as const satisfies CommandSchemas;

export type UpdateState = z.infer<typeof UpdateStateSchema>;
export type UpdateStatus = z.infer<typeof UpdateStatusSchema>;
