/**
 * The model's steps beyond export and sync: `sync --all` (every job kept current, or `--any`, within
 * `--daily-limit`), `preview`, `search`, and commands refused up front. Each is run in process by the
 * world and judged against the reference.
 */
import { runCommand } from './cli-in-process';
import { modelClock } from './clock';
import { unless, type Violation } from './rules';
import { expectedHits } from './rules/search';
import { formatFlags, jobFlags, type Step } from './steps';
import { exitsWith, type ModelWorld } from './world';

/** The first moment of the model clock's local day (the daily credit limit counts from it). */
function startOfDay(at: number): number {
  const day = new Date(at);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

/**
 * `sync --all [--any] [--daily-limit N]`: the marked jobs (or every finished job with a list), by
 * number, each synced as an automatic sync; a job the daily limit stopped is synced again. The
 * command exits with its worst job's code; credits, the key or the service stop the rest.
 */
export async function syncAllStep(
  world: ModelWorld,
  step: Extract<Step, { op: 'syncAll' }>,
): Promise<Violation[]> {
  const args = [
    'sync',
    '--all',
    ...(step.any === true ? ['--any'] : []),
    ...(step.dailyLimit === undefined ? [] : ['--daily-limit', String(step.dailyLimit)]),
    ...world.base,
  ];
  const today = startOfDay(modelClock.now());
  const spentToday = world.automatic.filter((charge) => charge.at >= today).length;
  const { result, log, span } = await world.command(args);
  const chosen = world.model.jobs.filter((job) =>
    step.any === true
      ? job.syncedLists.length > 0 && (job.state === 'completed' || job.dailyLimited)
      : job.keep,
  );
  const violations: Violation[] = [];
  let worst = 0;
  let stopped = false;
  for (const job of chosen) {
    if (stopped) break;
    if (job.state !== 'completed' && !job.dailyLimited) continue;
    const chargedBefore = job.charged;
    const expected = world.model.run(job, 'sync', { log, span, kill: 'none' });
    job.syncs += 1;
    violations.push(...expected.violations);
    const exits = [...expected.exits].map((exit) => (exit === 5 ? 0 : exit));
    worst = Math.max(worst, ...exits.filter((exit) => exit !== 0));
    job.dailyLimited = job.state !== 'completed' && exits.includes(3);
    if (exits.some((exit) => [4, 6, 130].includes(exit)) || expected.stops.has('credits')) stopped = true;
    void chargedBefore;
  }
  violations.push(...world.model.unexpectedPaid(log));
  const charged = log.chargedByOwner();
  world.attribute(log);
  for (const job of chosen)
    for (let i = 0; i < (charged.get(job.id) ?? 0); i++) world.automatic.push({ at: span.end, job: job.id });
  const spent = log.charged;
  violations.push(
    ...unless(
      'sync --all: automatic syncs spend no more than --daily-limit today',
      step.dailyLimit !== undefined && spent > Math.max(0, step.dailyLimit - spentToday)
        ? [`spent ${spent} with ${spentToday} spent today and a limit of ${step.dailyLimit}`]
        : [],
    ),
  );
  const allowed = worst === 0 ? [0] : [worst, 0, 3, 4, 6];
  violations.push(...exitsWith(result, allowed, "sync --all: exits with its worst job's code"));
  return violations;
}

/**
 * `preview`: walks the lists of the job an export with these options would run, buying list pages
 * only, and says how many videos they hold and how many transcripts are left to buy at most.
 */
export async function previewStep(
  world: ModelWorld,
  step: Extract<Step, { op: 'preview' }>,
): Promise<Violation[]> {
  const { job, created } = world.model.jobFor(step.job);
  world.last = job;
  const args = [
    'preview',
    ...step.job.sources,
    ...jobFlags(step.job),
    ...formatFlags(step.job),
    ...world.base,
  ];
  const { result, log, span } = await world.command(args);
  const expected = world.model.run(job, 'walk', { log, span, kill: 'none' });
  world.attribute(log);
  expected.violations.push(...world.model.unexpectedPaid(log));
  // A preview whose key the service refuses makes no job (docs/product.md, New job).
  if (created && result.code === 4) {
    world.model.forget(job);
    world.last = undefined;
  }
  if (expected.stops.size > 0) return expected.violations;
  const counted = /(\d[\d,]*) videos? from/.exec(result.stdout)?.[1]?.replace(/,/g, '');
  const toBuy = /at most (\d[\d,]*) credits?/.exec(result.stdout)?.[1]?.replace(/,/g, '');
  const left = world.model.transcriptsToBuy(job);
  return [
    ...expected.violations,
    ...exitsWith(result, [0], 'preview: walks the lists and says what the export will buy'),
    ...unless(
      'preview: says how many videos the lists hold and what their transcripts will cost at most',
      !job.exact
        ? []
        : [
            ...(counted === String(job.items.size)
              ? []
              : [`it says ${counted} videos, the reads named ${job.items.size}`]),
            ...(toBuy !== undefined && Number(toBuy) >= left.min && Number(toBuy) <= left.max
              ? []
              : [
                  `it says at most ${toBuy} credits for transcripts, ${left.min} to ${left.max} are left to buy`,
                ]),
          ],
    ),
  ];
}

/**
 * `search WORD --json [--job N] [--lang CODE]`: the stored transcripts whose segments hold the word,
 * each caption held twice counted once; exit 0 with hits, 1 without (docs/product.md, Searching).
 */
export async function searchStep(
  world: ModelWorld,
  step: Extract<Step, { op: 'search' }>,
): Promise<Violation[]> {
  const job = step.job === undefined ? undefined : world.pick(step.job, false);
  const args = [
    'search',
    step.word,
    '--json',
    '--limit',
    '1000',
    ...(job === undefined ? [] : ['--job', String(job.id)]),
    ...(step.lang === undefined ? [] : ['--lang', step.lang]),
    '--data-dir',
    world.dataDir,
  ];
  const result = await runCommand(args);
  const expected = expectedHits(world.model, { word: step.word, job, lang: step.lang });
  if (expected === undefined) return exitsWith(result, [0, 1], 'search: exits 0 with hits, 1 without');
  const found =
    result.code === 0
      ? (JSON.parse(result.stdout) as { videos: number; hits: number; groups: Array<{ videoId: string }> })
      : { videos: 0, hits: 0, groups: [] };
  return [
    ...exitsWith(result, [expected.hits > 0 ? 0 : 1], 'search: exits 0 with hits, 1 without'),
    ...unless(
      'search: finds every stored caption that holds the word, each once',
      found.videos === expected.videos && found.hits === expected.hits
        ? []
        : [
            `"${step.word}"${job === undefined ? '' : ` in job ${job.id}`}${step.lang === undefined ? '' : ` (${step.lang})`}: ${found.hits} hits in ${found.videos} videos (${found.groups.map((group) => group.videoId).join(' ')}), the stored transcripts hold ${expected.hits} in ${expected.videos}`,
          ],
    ),
  ];
}

/** A command with an option it refuses: exit 2 before anything is created or sent. */
export async function refusedStep(
  world: ModelWorld,
  step: Extract<Step, { op: 'refused' }>,
): Promise<Violation[]> {
  const { job } = step;
  const broken: Record<typeof step.problem, string[]> = {
    srtWithoutTimestamps: ['--no-timestamps', '--formats', 'txt,srt'],
    overlapTooLong: ['--formats', 'chunks', '--chunk-seconds', '20', '--chunk-overlap', '20'],
    badItems: ['--items', '3-a'],
    badDate: ['--published-after', '2024/01/01'],
  };
  const clean = {
    ...job,
    noTimestamps: undefined,
    items: undefined,
    publishedAfter: undefined,
    publishedOverlap: undefined,
    chunkSeconds: undefined,
    chunkOverlap: undefined,
  };
  const args = [
    'export',
    ...job.sources,
    ...jobFlags(clean),
    ...broken[step.problem],
    '--out',
    world.scratch('refused.zip'),
    ...world.base,
  ];
  const jobsBefore = await jobCount(world);
  const { result, log } = await world.command(args);
  const jobsAfter = await jobCount(world);
  return [
    ...exitsWith(result, [2], 'refused: a bad option exits 2'),
    ...unless('refused: nothing is sent', log.calls.length > 0 ? [`${log.calls.length} requests`] : []),
    ...unless(
      'refused: no job is made',
      jobsAfter === jobsBefore ? [] : [`${jobsBefore} jobs before, ${jobsAfter} after`],
    ),
  ];
}

async function jobCount(world: ModelWorld): Promise<number> {
  const listed = await runCommand(['jobs', '--json', '--data-dir', world.dataDir]);
  return listed.code === 0 ? (JSON.parse(listed.stdout) as unknown[]).length : 0;
}
