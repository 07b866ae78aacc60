// Choosing the Trends view's charting library by measurement (issue 47): `node bench/charts.mjs`.
//
// Each candidate draws the same chart as the Trends view does: three queries over 120 months, each a
// line with the band between its lower and upper bound, then the same as small multiples of six
// channels. Each is bundled for the browser as the renderer is (vite, minified) and measured for
// (1) what it adds to the bundle, minified and gzipped, (2) the time from the script's start to the
// chart in the page, median of 15 loads in Debian's Chromium, (3) whether it draws SVG (Save chart
// as SVG without a second renderer) and (4) what a screen reader is given (roles and names in the
// drawing, and axe-core's verdict on the page).
/* global window, document */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { machine, root } from './support.mjs';

const RUNS = Number(process.env.CHART_RUNS ?? 15);
// Inside the repository, so that the bundler finds node_modules.
const work = join(root, 'bench', '.work', 'charts-build');
mkdirSync(work, { recursive: true });

// The data: three series of 120 months with a band, as libraryTrends answers.
const DATA = `
const months = Array.from({ length: 120 }, (_, i) => new Date(Date.UTC(2015, i, 1)));
const series = ['river', 'lake', 'sea'].flatMap((query, q) =>
  months.map((date, i) => {
    const middle = 20 + 10 * Math.sin(i / 8 + q) + q * 5;
    return { query, date, low: middle - 3, high: middle + 4, channel: 'Channel ' + (i % 6) };
  }),
);
const done = () => { window.chartMs = performance.now() - window.startedAt; };
`;

const CANDIDATES = {
  'Observable Plot 0.6.17': `
import * as Plot from '@observablehq/plot';
${DATA}
const chart = Plot.plot({
  ariaLabel: 'Matching videos per month', ariaDescription: 'Three queries, each with its uncertainty band',
  x: { type: 'utc', label: 'Month' }, y: { label: 'Videos', grid: true }, color: { legend: true },
  marks: [
    Plot.areaY(series, { x: 'date', y1: 'low', y2: 'high', fill: 'query', fillOpacity: 0.2 }),
    Plot.lineY(series, { x: 'date', y: (d) => (d.low + d.high) / 2, stroke: 'query', tip: true }),
  ],
});
const multiples = Plot.plot({
  fy: { label: null }, x: { type: 'utc' },
  marks: [Plot.areaY(series, { x: 'date', y1: 'low', y2: 'high', fy: 'channel', fill: 'query', fillOpacity: 0.2 }),
          Plot.lineY(series, { x: 'date', y: (d) => (d.low + d.high) / 2, fy: 'channel', stroke: 'query' })],
});
document.body.append(chart, multiples);
done();
`,
  'uPlot 1.6.32': `
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
${DATA}
const xs = months.map((d) => d.getTime() / 1000);
const cols = ['river', 'lake', 'sea'].flatMap((query) => {
  const rows = series.filter((d) => d.query === query);
  return [rows.map((d) => d.low), rows.map((d) => d.high), rows.map((d) => (d.low + d.high) / 2)];
});
const opts = { width: 800, height: 300, title: 'Matching videos per month',
  series: [{}, ...['river', 'lake', 'sea'].flatMap((q) => [{ label: q + ' low' }, { label: q + ' high' }, { label: q, stroke: 'blue' }])],
  bands: [0, 1, 2].map((q) => ({ series: [q * 3 + 2, q * 3 + 1], fill: 'rgba(0,0,255,0.1)' })) };
new uPlot(opts, [xs, ...cols], document.body);
for (let c = 0; c < 6; c++) new uPlot({ ...opts, height: 120, title: 'Channel ' + c }, [xs, ...cols], document.body);
done();
`,
  'Apache ECharts 6.1.0 (SVG renderer, tree-shaken)': `
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent, LegendComponent, AriaComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, AriaComponent, SVGRenderer]);
${DATA}
function draw(height) {
  const el = document.createElement('div'); el.style.width = '800px'; el.style.height = height + 'px';
  document.body.append(el);
  const chart = echarts.init(el, null, { renderer: 'svg' });
  chart.setOption({ aria: { enabled: true }, tooltip: { trigger: 'axis' }, legend: {},
    xAxis: { type: 'time' }, yAxis: { type: 'value' },
    series: ['river', 'lake', 'sea'].flatMap((query) => {
      const rows = series.filter((d) => d.query === query);
      return [
        { type: 'line', stack: query, data: rows.map((d) => [d.date, d.low]), lineStyle: { opacity: 0 }, symbol: 'none' },
        { type: 'line', stack: query, data: rows.map((d) => [d.date, d.high - d.low]), lineStyle: { opacity: 0 }, areaStyle: { opacity: 0.2 }, symbol: 'none' },
        { type: 'line', name: query, data: rows.map((d) => [d.date, (d.low + d.high) / 2]), symbol: 'none' },
      ];
    }) });
}
draw(300); for (let c = 0; c < 6; c++) draw(120);
done();
`,
};

const results = { machine: machine(), date: new Date().toISOString(), load: loadavg(), candidates: {} };
console.log(
  `Charting libraries on ${results.machine}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const axeSource = readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
try {
  for (const [name, source] of Object.entries(CANDIDATES)) {
    const dir = join(work, name.replace(/\W+/g, '-'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'entry.js'), source);
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><html lang="en"><head><title>chart</title><script>window.startedAt = performance.now()</script></head><body><main></main><script type="module" src="./entry.js"></script></body></html>',
    );
    const output = await build({
      root: dir,
      logLevel: 'silent',
      resolve: { alias: {} },
      build: {
        outDir: join(dir, 'dist'),
        minify: true,
        write: false,
        modulePreload: false,
        cssCodeSplit: false,
      },
      configFile: false,
    });
    const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => o.output);
    const js = chunks
      .filter((c) => c.type === 'chunk')
      .map((c) => c.code)
      .join('\n');
    const css = chunks
      .filter((c) => c.fileName.endsWith('.css'))
      .map((c) => c.source)
      .join('\n');
    const bytes = Buffer.byteLength(js) + Buffer.byteLength(css);
    const gzipped = gzipSync(js + css).length;
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    const html = `<!doctype html><html lang="en"><head><title>chart</title><style>${css}</style></head><body><main><script>window.startedAt = performance.now()</script><script type="module">${js}</script></main></body></html>`;
    const times = [];
    for (let run = 0; run < RUNS; run++) {
      await page.setContent(html);
      await page.waitForFunction(() => typeof window.chartMs === 'number');
      times.push(await page.evaluate(() => window.chartMs));
    }
    times.sort((a, b) => a - b);
    const drawing = await page.evaluate(() => ({
      svg: document.querySelectorAll('svg').length,
      canvas: document.querySelectorAll('canvas').length,
      named: [...document.querySelectorAll('[aria-label], [role="img"], [aria-description], title, desc')]
        .length,
    }));
    await page.addScriptTag({ content: axeSource });
    const axe = await page.evaluate(async () => {
      const found = await window.axe.run(document);
      return found.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => v.id);
    });
    await page.close();
    results.candidates[name] = {
      minifiedKiB: bytes / 1024,
      gzipKiB: gzipped / 1024,
      firstChartMedianMs: times[Math.floor(times.length / 2)],
      firstChartMinMs: times[0],
      svgElements: drawing.svg,
      canvasElements: drawing.canvas,
      namedElements: drawing.named,
      axeSeriousOrCritical: axe,
    };
    console.log(`  ${name}: ${JSON.stringify(results.candidates[name])}`);
  }
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
results.loadAfter = loadavg();
mkdirSync(join(root, 'bench', '.work'), { recursive: true });
writeFileSync(join(root, 'bench', '.work', 'charts.json'), `${JSON.stringify(results, null, 2)}\n`);
