#!/usr/bin/env node
// The desktop app's renderer figures of bench/RESULTS.md (issue 9), measured in Chromium over
// `scriptorium ui`, each run printed, min and median recorded:
//   A. from the click on a job's link to the first row of its Videos table in the DOM, for a job of
//      100,000 videos, alternated with the same measure for a job of 2,000 (the page reloaded before
//      each click, so that nothing is held in the stores)
//   B. frame durations while the 100,000-row table is scrolled from top to bottom, a screenful a frame
//   C. the renderer's JS heap after GC, sampled every second while a 20,000-video job runs to its end,
//      with the Jobs screen or the job's detail open
//   D. the Library (issue 21) over a library of BENCH_LIBRARY (default 20,000) transcripts: from the
//      last keystroke of a word in "Search transcripts" to its first hit in the DOM (the 150 ms pause
//      the screen waits for typing to stop included), a word found in about one segment in 500
//      alternated with one found in a single video
//   E. the reader: from the click on a hit to the hit's segment drawn in the reader, for a 3-hour
//      transcript of 4,000 segments alternated with a 60-segment one
// Run with `npm run bench:renderer` (it builds first). BENCH_REPEATS (default 3) sets the runs of
// each figure, BENCH_ONLY (a comma list of A to E) narrows the run, BENCH_RUNNING (default 20000)
// sets the size of figure C's job; CHROMIUM_PATH names the browser (default /usr/bin/chromium).
// Every process talks only to 127.0.0.1 and is stopped at the end, also after an error.

// The functions handed to page.evaluate run in the page, where these are defined.
/* global window, document, requestAnimationFrame, MutationObserver */

import { chromium } from '@playwright/test';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleSources, cli, machine, record, root, seededRandom, startSimulator, wait } from './support.mjs';
const repeats = Number(process.env.BENCH_REPEATS ?? 3);
const only = process.env.BENCH_ONLY?.toUpperCase().split(',');
const wanted = (figure) => only === undefined || only.includes(figure);
const LARGE = 100_000;
const SMALL = 2_000;
const RUNNING = Number(process.env.BENCH_RUNNING ?? 20_000);
const LIBRARY = Number(process.env.BENCH_LIBRARY ?? 20_000);
/** Words of the library: 5,000 of them, each in about one segment in 500 of the library. */
const VOCABULARY = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36).padStart(3, 'a')}x`);
const FREQUENT = VOCABULARY[1234];
/** Found only in one short transcript, and in the 3-hour one: the words figures D and E look for. */
const RARE = 'harbourlight';
const LONG_WORD = 'lighthouse';

/** The first data row of the Videos table (a row still loading has no position cell). */
const FIRST_ROW_ELEMENT = '.vt-body [data-index="0"]';
const FIRST_ROW = `${FIRST_ROW_ELEMENT} .vt-position`;
const VIEWPORT = { width: 1280, height: 860 };
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout);
const results = { machine: machine(), repeats, figures: {} };

/** Every child process started, so that an error anywhere still stops them all. */
const children = new Set();
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));
const temporary = [];

const sim = await startSimulator();
track(sim.child);
let browser;
try {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-gpu',
    ],
  });
  results.chromium = browser.version();
  console.log(`machine: ${results.machine}; Chromium ${results.chromium}; ${repeats} runs a figure`);
  if (wanted('A') || wanted('B')) await withLargeJobs();
  if (wanted('C')) await memoryWhileRunning();
  if (wanted('D') || wanted('E')) await withLibrary();
} finally {
  await browser?.close();
  await sim.stop();
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
}
mkdirSync(join(root, 'bench', '.work'), { recursive: true });
writeFileSync(join(root, 'bench', '.work', 'renderer.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log('\nAll figures: bench/.work/renderer.json');

// ---------------------------------------------------------------------------------------------

/** Figures A and B share one data folder holding a 100,000-video job and a 2,000-video one. */
async function withLargeJobs() {
  const dataDir = join(tempDir(), 'data');
  // A preview walks the lists and records every video, pending: the job is in the database,
  // nothing is fetched. It is the same job a user previews in New job.
  let started = performance.now();
  const large = await previewJob(playlist('PLrendererBenchLarge', LARGE), dataDir);
  console.log(`job ${large} of ${LARGE} videos previewed in ${seconds(started)} s`);
  started = performance.now();
  const small = await previewJob(playlist('PLrendererBenchSmall', SMALL), dataDir);
  console.log(`job ${small} of ${SMALL} videos previewed in ${seconds(started)} s`);

  const ui = await startUi(dataDir);
  const { context, page, errors } = await openApp(ui);
  try {
    if (wanted('A')) await firstRows(page, { large, small });
    if (wanted('B')) await scrollFrames(page, ui, large);
    if (errors.length > 0) throw new Error(`errors thrown in the page:\n${errors.join('\n')}`);
  } finally {
    await context.close();
    await ui.stop();
  }
}

/** Figure A: click on the job's link to its first row in the DOM, 100,000 videos beside 2,000. */
async function firstRows(page, jobs) {
  const times = { [LARGE]: [], [SMALL]: [] };
  const painted = { [LARGE]: [], [SMALL]: [] };
  for (let run = 0; run < repeats; run++) {
    for (const [size, jobId] of [
      [LARGE, jobs.large],
      [SMALL, jobs.small],
    ]) {
      const measured = await clickToFirstRow(page, jobId);
      times[size].push(measured.inDom);
      painted[size].push(measured.painted);
      console.log(
        `[A] ${size} videos, run ${run + 1}: first row in the DOM ${measured.inDom.toFixed(1)} ms after the click, its frame done at ${measured.painted.toFixed(1)} ms`,
      );
    }
  }
  for (const size of [LARGE, SMALL]) {
    record(results, 'A', `${size} videos: click to first row in the DOM, ms`, times[size], 2);
    record(results, 'A', `${size} videos: click to the end of the frame that draws it, ms`, painted[size], 2);
  }
}

/**
 * From the Jobs screen, reloaded (empty stores, as a fresh start of the app would have), the
 * job's heading link is clicked; the page times the click and the first row itself.
 */
async function clickToFirstRow(page, jobId) {
  await showJobsAfresh(page);
  const link = page.locator(`article h2 a[href="#/jobs/${jobId}"]`);
  await link.waitFor();
  await page.evaluate(watchFirstRow, FIRST_ROW);
  await link.click();
  return page.evaluate(() => window.benchFirstRow);
}

/**
 * In the page: a capturing listener notes the click's time, a MutationObserver the moment the first
 * row is in the DOM, and the next animation frame plus a posted message the end of the frame that
 * draws it. The result is left as a promise on window.
 */
function watchFirstRow(selector) {
  window.benchFirstRow = new Promise((resolve) => {
    let clickedAt = null;
    window.addEventListener('click', () => (clickedAt = performance.now()), { capture: true, once: true });
    const observer = new MutationObserver(() => {
      if (clickedAt === null || document.querySelector(selector) === null) return;
      const inDom = performance.now() - clickedAt;
      observer.disconnect();
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve({ inDom, painted: performance.now() - clickedAt });
        channel.port2.postMessage(null);
      });
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
}

/** Figure B: the 100,000-row table scrolled from top to bottom, every frame's duration noted. */
async function scrollFrames(page, ui, jobId) {
  const p95s = [];
  const maxima = [];
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  for (let run = 0; run < repeats; run++) {
    await showJobsAfresh(page);
    await page.locator(`article h2 a[href="#/jobs/${jobId}"]`).click();
    await page.locator(FIRST_ROW).waitFor();
    await page.waitForTimeout(1_000); // the detail's other requests answered: the scroll starts idle
    const before = await mainThreadTimes(cdp);
    const serverBefore = cpuSeconds(ui.pid);
    const scrolled = await page.evaluate(scrollToBottom);
    const serverCpu = cpuSeconds(ui.pid) - serverBefore;
    const after = await mainThreadTimes(cdp);
    // What the renderer's main thread did, in ms a frame: tells its own work from waiting for a core.
    const busy = Object.fromEntries(
      Object.keys(after).map((name) => [
        name,
        ((after[name] - before[name]) * 1000) / scrolled.frames.length,
      ]),
    );
    const sorted = [...scrolled.frames].sort((a, b) => a - b);
    const p95 = percentile(sorted, 0.95);
    p95s.push(p95);
    maxima.push(sorted.at(-1));
    const over = (limit) => sorted.filter((duration) => duration > limit).length;
    console.log(
      `[B] run ${run + 1}: ${scrolled.rows} rows, ${scrolled.frames.length} frames of ${scrolled.step} px in ${(scrolled.ms / 1000).toFixed(1)} s: ` +
        `median ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms; ` +
        `${over(20)} frames over 20 ms, ${over(50)} over 50 ms; ${scrolled.longFrames.length} long animation frames (max ${Math.max(0, ...scrolled.longFrames).toFixed(0)} ms); ` +
        `${scrolled.framesShowingLoading} frames showed rows still loading; last row drawn ${scrolled.lastRowAfter.toFixed(0)} ms after the last step; ` +
        `renderer a frame: main thread busy ${busy.TaskDuration.toFixed(2)} ms (script ${busy.ScriptDuration.toFixed(2)}, style ${busy.RecalcStyleDuration.toFixed(2)}, layout ${busy.LayoutDuration.toFixed(2)}), ` +
        `its CPU ${busy.ThreadTime.toFixed(2)} ms, the whole renderer process's CPU ${busy.ProcessTime.toFixed(2)} ms; ` +
        `scriptorium ui's CPU ${serverCpu.toFixed(1)} s during the scroll`,
    );
    (results.scrollRuns ??= []).push({
      ...scrolled,
      frames: undefined,
      p95,
      max: sorted.at(-1),
      busy,
      serverCpu,
    });
  }
  await cdp.detach();
  record(results, 'B', 'scrolling 100,000 rows: p95 frame duration, ms', p95s, 2);
  record(results, 'B', 'scrolling 100,000 rows: longest frame, ms', maxima, 2);
}

/**
 * In the page: a screenful down on each animation frame (as a fast flick or a dragged scroll bar
 * does) until the end, the frames timed by requestAnimationFrame's timestamps; long animation
 * frames noted by a PerformanceObserver; frames whose visible rows were still loading counted.
 */
async function scrollToBottom() {
  const body = document.querySelector('.vt-body');
  const rowHeight = 40;
  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const longFrames = [];
  const observer = new PerformanceObserver((list) =>
    list.getEntries().forEach((entry) => longFrames.push(entry.duration)),
  );
  if (PerformanceObserver.supportedEntryTypes.includes('long-animation-frame'))
    observer.observe({ type: 'long-animation-frame' });
  const visibleLoading = () => {
    const first = Math.floor(body.scrollTop / rowHeight);
    const last = Math.min(
      Math.ceil((body.scrollTop + body.clientHeight) / rowHeight),
      Math.round(body.scrollHeight / rowHeight),
    );
    for (let index = first; index < last; index++)
      if (body.querySelector(`[data-index="${index}"] .vt-position`) === null) return true;
    return false;
  };
  const step = body.clientHeight;
  const frames = [];
  let framesShowingLoading = 0;
  let previous = await nextFrame();
  const started = performance.now();
  while (body.scrollTop + body.clientHeight < body.scrollHeight - 1) {
    body.scrollTop += step;
    const now = await nextFrame();
    frames.push(now - previous);
    previous = now;
    if (visibleLoading()) framesShowingLoading += 1;
  }
  const lastStep = performance.now();
  const rows = Math.round(body.scrollHeight / rowHeight);
  while (body.querySelector(`[data-index="${rows - 1}"] .vt-position`) === null) await nextFrame();
  observer.disconnect();
  return {
    rows,
    step,
    ms: lastStep - started,
    frames,
    longFrames,
    framesShowingLoading,
    lastRowAfter: performance.now() - lastStep,
  };
}

/** Figure C: the renderer's heap while a 20,000-video job runs, the Jobs screen or its detail open. */
async function memoryWhileRunning() {
  const growth = { jobs: [], detail: [] };
  const secondHalf = { jobs: [], detail: [] };
  for (let run = 0; run < repeats; run++) {
    for (const view of ['jobs', 'detail']) {
      const dataDir = join(tempDir(), 'data');
      const ui = await startUi(dataDir);
      const { context, page, errors } = await openApp(ui);
      try {
        const measured = await heapDuringJob(page, ui, view, playlist(`PLrendererBenchRun${run}`, RUNNING));
        if (errors.length > 0) throw new Error(`errors thrown in the page:\n${errors.join('\n')}`);
        const mib = (bytes) => (bytes / 2 ** 20).toFixed(2);
        const percent = ((measured.end - measured.start) / measured.start) * 100;
        // Growth over the job's second half: past the warm-up, what a leak would keep adding.
        const latePercent = ((measured.end - measured.halfway) / measured.halfway) * 100;
        growth[view].push(percent);
        secondHalf[view].push(latePercent);
        console.log(
          `[C] ${view === 'jobs' ? 'Jobs screen' : 'job detail '}, run ${run + 1}: heap after GC ${mib(measured.start)} MiB at start ` +
            `(${measured.doneAtStart} videos done), halfway ${mib(measured.halfway)}, peak ${mib(measured.peak)}, end ${mib(measured.end)} MiB (${signed(percent)} % from the start, ${signed(latePercent)} % from halfway); ` +
            `DOM nodes ${measured.nodesAtStart} → ${measured.nodesAtEnd}; ${measured.samples.length} samples over ${measured.seconds.toFixed(0)} s`,
        );
        (results.memoryRuns ??= []).push({
          view,
          run: run + 1,
          ...measured,
          growthPercent: percent,
          secondHalfGrowthPercent: latePercent,
        });
      } finally {
        await context.close();
        await ui.stop();
      }
    }
  }
  const screens = { jobs: 'Jobs screen open', detail: 'job detail open' };
  for (const [span, values] of [
    ['start to end', growth],
    ['halfway to end', secondHalf],
  ]) {
    for (const [view, screen] of Object.entries(screens)) {
      record(results, 'C', `${RUNNING} videos running, ${screen}: heap growth ${span}, %`, values[view], 2);
    }
  }
}

/**
 * Starts the job from New job, as a user would, and opens the view; then, every second, collects
 * garbage and reads the heap over CDP until the job is completed, and once more a second after that.
 * The job's progress is asked of the ui's own API from here, not read in the page: Playwright's
 * injected script runs in the page's heap, and would be measured with it.
 */
async function heapDuringJob(page, ui, view, source) {
  const cdp = await page.context().newCDPSession(page);
  const sample = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    const { nodes } = await cdp.send('Memory.getDOMCounters');
    return { at: performance.now(), heap: usedSize, nodes };
  };
  const job = async () => {
    const [newest] = await ui.command('listJobs', {});
    return { completed: newest.status === 'completed', done: newest.counts.total - newest.counts.pending };
  };
  await goTo(page, 'New job');
  await page.getByRole('textbox', { name: 'Sources' }).fill(source);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();
  if (view === 'detail') {
    await page.getByRole('article').first().getByRole('heading', { level: 2 }).getByRole('link').click();
    await page.locator(FIRST_ROW).waitFor();
  }

  const samples = [await sample()];
  const doneAtStart = (await job()).done;
  while (!(await job()).completed) {
    await wait(1_000);
    samples.push(await sample());
    if (samples.length > 900) throw new Error('the job did not complete within 15 minutes');
  }
  await wait(1_000);
  samples.push(await sample());
  await cdp.detach();
  const { done } = await job();
  if (done !== RUNNING) throw new Error(`the job completed with ${done} videos done`);
  // The page says so too (read after the last sample), and an open table shows the rows' new status.
  const status = view === 'jobs' ? page.getByRole('article').first() : page.locator('.detail-title');
  await status.getByText('Completed', { exact: true }).waitFor();
  if (view === 'detail') await page.locator(FIRST_ROW_ELEMENT, { hasNotText: 'Pending' }).waitFor();

  const heaps = samples.map((entry) => entry.heap);
  return {
    start: heaps[0],
    halfway: heaps[Math.floor(heaps.length / 2)],
    peak: Math.max(...heaps),
    end: heaps.at(-1),
    nodesAtStart: samples[0].nodes,
    nodesAtEnd: samples.at(-1).nodes,
    doneAtStart,
    seconds: (samples.at(-1).at - samples[0].at) / 1000,
    samples: samples.map((entry) => ({ heap: entry.heap, nodes: entry.nodes })),
  };
}

// ---------------------------------------------------------------------------------------------
// The Library (figures D and E)

/**
 * A data folder whose database holds LIBRARY transcripts shaped as the simulator's (5-80 segments of
 * 3-10 words), stored and indexed by the store's own storeTranscript (bundled from the sources for
 * this run, as bench/library.mjs does), plus a 3-hour transcript of 4,000 segments.
 */
async function buildLibrary(dataDir) {
  const core = await bundleSources('renderer-library', {
    'src/core/store/index.ts': ['openDatabase', 'DATABASE_FILE'],
    'src/core/store/transcripts.ts': ['storeTranscript'],
  });
  mkdirSync(dataDir, { recursive: true });
  const db = core.openDatabase(join(dataDir, core.DATABASE_FILE));
  const random = seededRandom(21);
  const int = (min, max) => min + Math.floor(random() * (max - min + 1));
  const store = (n, segments, seconds, wordAt) => {
    const videoId = `r${n.toString(36).padStart(10, '0')}`;
    const transcript = Array.from({ length: segments }, (_, i) => {
      const words = Array.from({ length: int(3, 10) }, () => VOCABULARY[int(0, VOCABULARY.length - 1)]);
      const extra = wordAt(i);
      if (extra !== null) words.splice(1, 0, extra);
      return {
        text: words.join(' '),
        start: Math.round(((i * seconds) / segments) * 100) / 100,
        duration: 2.5,
      };
    });
    const title = `Video ${n}`;
    const metadata = { title, author_name: `Channel ${n % 400}` };
    core.storeTranscript(db, {
      videoId,
      requestedLang: '',
      includeTimestamp: true,
      sendMetadata: true,
      language: 'en',
      title,
      segmentCount: segments,
      body: JSON.stringify({ video_id: videoId, language: 'en', transcript, metadata }),
      fetchedAt: '2026-11-27T00:00:00.000Z',
      segmentTexts: transcript.map((segment) => segment.text),
    });
  };
  const fill = db.transaction((from, to) => {
    for (let n = from; n < to; n++) store(n, int(5, 80), int(45, 2400), () => null);
  });
  for (let done = 0; done < LIBRARY; done += 1000) fill(done, Math.min(LIBRARY, done + 1000));
  // The two transcripts the reader opens: 3 hours in 4,000 segments, the word in one in a hundred,
  // and 60 segments with it in ten; each also says RARE once, so that figure D finds one video.
  store(LIBRARY, 4_000, 3 * 3600, (i) => (i === 2_000 ? RARE : i % 100 === 50 ? LONG_WORD : null));
  store(LIBRARY + 1, 60, 1800, (i) => (i === 30 ? RARE : i % 6 === 3 ? LONG_WORD : null));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

async function withLibrary() {
  const dataDir = join(tempDir(), 'data');
  let started = performance.now();
  await buildLibrary(dataDir);
  console.log(`library of ${LIBRARY} transcripts and a 3-hour one built in ${seconds(started)} s`);
  const ui = await startUi(dataDir);
  const { context, page, errors } = await openApp(ui);
  try {
    if (wanted('D')) await firstResults(page, ui);
    if (wanted('E')) await readerOpens(page);
    if (errors.length > 0) throw new Error(`errors thrown in the page:\n${errors.join('\n')}`);
  } finally {
    await context.close();
    await ui.stop();
  }
}

/** The Library afresh: reloaded, so that the stores start empty. */
async function showLibraryAfresh(page) {
  await goTo(page, 'Jobs');
  await page.reload();
  await goTo(page, 'Library');
}

/** Figure D: from the last keystroke of a word to its first hit in the DOM, frequent and rare words. */
async function firstResults(page, ui) {
  const times = { frequent: [], rare: [] };
  const commandTimes = { frequent: [], rare: [] };
  const painted = { frequent: [], rare: [] };
  for (let run = 0; run < repeats; run++) {
    for (const [kind, word] of [
      ['frequent', FREQUENT],
      ['rare', RARE],
    ]) {
      await showLibraryAfresh(page);
      const box = page.getByRole('searchbox', { name: 'Search transcripts' });
      await box.focus();
      await page.evaluate(watchFirstHit);
      await page.keyboard.type(word);
      const measured = await page.evaluate(() => window.benchFirstHit);
      const summary = await page.locator('.library-count').textContent();
      // The same search as a script sends it: what of the time is the app's, what the page's.
      const asked = performance.now();
      await ui.command('searchTranscripts', { query: word, limit: 100 });
      const command = performance.now() - asked;
      times[kind].push(measured.inDom);
      painted[kind].push(measured.painted);
      commandTimes[kind].push(command);
      console.log(
        `[D] ${kind} word, run ${run + 1}: first hit in the DOM ${measured.inDom.toFixed(1)} ms after the last keystroke, its frame done at ${measured.painted.toFixed(1)} ms (${summary}); the command alone over HTTP ${command.toFixed(1)} ms`,
      );
    }
  }
  for (const kind of ['frequent', 'rare']) {
    record(
      results,
      'D',
      `${LIBRARY} transcripts, ${kind} word: last keystroke to first hit in the DOM, ms`,
      times[kind],
      1,
    );
    record(
      results,
      'D',
      `${LIBRARY} transcripts, ${kind} word: to the end of the frame that draws it, ms`,
      painted[kind],
      1,
    );
    record(
      results,
      'D',
      `${LIBRARY} transcripts, ${kind} word: searchTranscripts alone over HTTP, ms`,
      commandTimes[kind],
      1,
    );
  }
}

/** In the page: times each input event; resolves when a hit is in the DOM after the last one. */
function watchFirstHit() {
  window.benchFirstHit = new Promise((resolve) => {
    let typedAt = null;
    document.addEventListener('input', () => (typedAt = performance.now()), { capture: true });
    const observer = new MutationObserver(() => {
      if (typedAt === null || document.querySelector('button.hit') === null) return;
      const inDom = performance.now() - typedAt;
      observer.disconnect();
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve({ inDom, painted: performance.now() - typedAt });
        channel.port2.postMessage(null);
      });
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
}

/** Figure E: from the click on a hit to its segment drawn in the reader, 4,000 segments beside 60. */
async function readerOpens(page) {
  const sizes = { 4000: 'Video ' + LIBRARY, 60: 'Video ' + (LIBRARY + 1) };
  const times = { 4000: [], 60: [] };
  const painted = { 4000: [], 60: [] };
  for (let run = 0; run < repeats; run++) {
    for (const [segments, title] of Object.entries(sizes)) {
      await showLibraryAfresh(page);
      await page.getByRole('searchbox', { name: 'Search transcripts' }).fill(LONG_WORD);
      const group = page
        .locator('.result-group')
        .filter({ has: page.getByRole('heading', { name: title, exact: true }) });
      // The hit in the middle of the group, so that the reader scrolls to it.
      const hits = group.locator('button.hit');
      await hits.first().waitFor();
      const hit = hits.nth(Math.floor((await hits.count()) / 2));
      await page.evaluate(watchReader);
      await hit.click();
      const measured = await page.evaluate(() => window.benchReader);
      times[segments].push(measured.inDom);
      painted[segments].push(measured.painted);
      console.log(
        `[E] ${segments} segments, run ${run + 1}: the hit's segment in the reader ${measured.inDom.toFixed(1)} ms after the click, its frame done at ${measured.painted.toFixed(1)} ms`,
      );
    }
  }
  for (const segments of Object.keys(sizes)) {
    record(
      results,
      'E',
      `${segments} segments: click on a hit to its segment in the reader, ms`,
      times[segments],
      1,
    );
    record(
      results,
      'E',
      `${segments} segments: to the end of the frame that draws it, ms`,
      painted[segments],
      1,
    );
  }
}

/** In the page: the click's time, then the moment the reader draws its current segment. */
function watchReader() {
  window.benchReader = new Promise((resolve) => {
    let clickedAt = null;
    window.addEventListener('click', () => (clickedAt = performance.now()), { capture: true, once: true });
    const drawn = () => document.querySelector('.reader-scroller [aria-current="true"]');
    const observer = new MutationObserver(() => {
      if (clickedAt === null || drawn() === null) return;
      const inDom = performance.now() - clickedAt;
      observer.disconnect();
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve({ inDom, painted: performance.now() - clickedAt });
        channel.port2.postMessage(null);
      });
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true });
  });
}

/** CPU seconds a process has used so far (user and system), from /proc. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** The renderer main thread's cumulative times, in seconds, from CDP's Performance.getMetrics. */
async function mainThreadTimes(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const names = [
    'TaskDuration',
    'ScriptDuration',
    'RecalcStyleDuration',
    'LayoutDuration',
    'ThreadTime',
    'ProcessTime',
  ];
  return Object.fromEntries(
    names.map((name) => [name, metrics.find((metric) => metric.name === name).value]),
  );
}

// ---------------------------------------------------------------------------------------------

/** A fresh context and page on the ui's address (its private path carries the token); page errors kept. */
async function openApp(ui) {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US', timezoneId: 'UTC' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.stack ?? error.message));
  await page.goto(ui.url);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  return { context, page, errors };
}

async function goTo(page, screen) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: screen, exact: true })
    .click();
  await page.getByRole('heading', { level: 1, name: screen, exact: true }).waitFor();
}

/** Back to the Jobs screen, then a reload: the stores start empty, as when the app is opened. */
async function showJobsAfresh(page) {
  await goTo(page, 'Jobs');
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Jobs', exact: true }).waitFor();
}

/** A playlist ID of real length (34 characters) whose simulated list holds `size` videos. */
function playlist(prefix, size) {
  const suffix = `_n${size}`;
  return `${prefix.padEnd(34 - suffix.length, 'x')}${suffix}`;
}

/** `scriptorium preview` of one playlist: resolves with the ID of the job it recorded. */
async function previewJob(source, dataDir) {
  const child = track(
    spawn(process.execPath, [cli, 'preview', source, '--base-url', sim.url, '--data-dir', dataDir], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TRANSCRIPT_API_KEY: sim.key },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise((resolve) => child.on('close', resolve));
  const jobId = /^Job (\d+):/m.exec(output)?.[1];
  if (code !== 0 || jobId === undefined) throw new Error(`scriptorium preview failed (${code}):\n${output}`);
  return Number(jobId);
}

/** `scriptorium ui --no-open --port 0` on the data folder, configured for the simulator. */
async function startUi(dataDir) {
  const child = track(
    spawn(
      process.execPath,
      [cli, 'ui', '--no-open', '--port', '0', '--data-dir', dataDir, '--base-url', sim.url],
      {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, TRANSCRIPT_API_KEY: sim.key },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    ),
  );
  let output = '';
  for await (const chunk of child.stdout) {
    output += chunk;
    const url = /Scriptorium is open at (\S+)/.exec(output)?.[1];
    if (url !== undefined) {
      child.stdout.resume(); // later output is not read, but must not fill the pipe
      const command = async (name, input) => {
        const response = await fetch(new URL(`api/command/${name}`, url), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(input),
        });
        const answer = await response.json();
        if (!answer.ok) throw new Error(`${name}: ${answer.error.message}`);
        return answer.value;
      };
      return { url, pid: child.pid, command, stop: () => stop(child, 'SIGTERM') };
    }
  }
  throw new Error(`scriptorium ui printed no address:\n${output}`);
}

function track(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/** Asks a child to stop, as Ctrl+C would; one still running after 10 s is killed. */
function stop(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-bench-renderer-'));
  temporary.push(dir);
  return dir;
}

/** The value below which `fraction` of the sorted values lie (nearest rank). */
function percentile(sorted, fraction) {
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)];
}

function signed(value) {
  return `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;
}

function seconds(since) {
  return ((performance.now() - since) / 1000).toFixed(1);
}
