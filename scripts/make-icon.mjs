#!/usr/bin/env node
// `node scripts/make-icon.mjs`: draws the app's master icon, resources/icon.png, 1024×1024, from
// which electron-builder makes the macOS .icns (which wants 512 at least) and the Windows .ico; and
// the Linux icons, resources/icons/<size>x<size>.png, one for each size of hicolor's index.theme from
// 16 to 512 that desktops commonly ask for, each drawn at its own size rather than scaled. A page
// with four lines of text on a rounded dark square, drawn with plain Node (zlib for the PNG), so
// that no image tool is needed to draw it again.
import { mkdirSync, writeFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';

export const ICON_FILE = new URL('../resources/icon.png', import.meta.url);
export const ICON_SIZE = 1024;
export const LINUX_ICONS = new URL('../resources/icons/', import.meta.url);
export const LINUX_ICON_SIZES = [16, 22, 24, 32, 48, 64, 128, 256, 512];

const BACKGROUND = [40, 52, 72];
const PAGE = [244, 240, 228];
const INK = [90, 100, 120];
/** Samples per pixel along each axis: edges and corners are anti-aliased from 4 × 4 samples. */
const SAMPLES = 4;

/**
 * The shapes on a 256-unit grid, the first that holds a point giving its colour: the lines, the
 * page, then the background (a square with rounded corners; outside it the icon is transparent).
 */
const LINES = [80, 112, 144, 176].map((top) => ({ left: 84, top, right: 172, bottom: top + 8 }));
const SHEET = { left: 64, top: 40, right: 192, bottom: 216 };
const CORNER_RADIUS = 48;

const inside = (box, x, y) => x >= box.left && x < box.right && y >= box.top && y < box.bottom;

function insideRoundedSquare(x, y) {
  const dx = Math.max(CORNER_RADIUS - x, 0, x - (256 - CORNER_RADIUS));
  const dy = Math.max(CORNER_RADIUS - y, 0, y - (256 - CORNER_RADIUS));
  return dx * dx + dy * dy <= CORNER_RADIUS * CORNER_RADIUS;
}

function colourAt(x, y) {
  if (LINES.some((line) => inside(line, x, y))) return INK;
  if (inside(SHEET, x, y)) return PAGE;
  return insideRoundedSquare(x, y) ? BACKGROUND : undefined;
}

/** The icon as PNG scanlines: each row a filter byte (0, none) and then RGBA pixels. */
export function drawIcon(size = ICON_SIZE) {
  const rows = Buffer.alloc(size * (1 + size * 4));
  const unit = 256 / size / SAMPLES;
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const colour = colourAt((column * SAMPLES + sx + 0.5) * unit, (row * SAMPLES + sy + 0.5) * unit);
          if (colour === undefined) continue;
          colour.forEach((channel, index) => (sum[index] += channel));
          sum[3] += 255;
        }
      }
      const covered = sum[3] / 255;
      const at = row * (1 + size * 4) + 1 + column * 4;
      // Colour averaged over the covered samples only; the coverage goes to alpha.
      for (let channel = 0; channel < 3; channel++) {
        rows[at + channel] = covered === 0 ? 0 : Math.round(sum[channel] / covered);
      }
      rows[at + 3] = Math.round(sum[3] / (SAMPLES * SAMPLES));
    }
  }
  return rows;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, checksum]);
}

/** A PNG of `size` × `size` RGBA pixels from scanlines as drawIcon returns them. */
export function encodePng(size, rows) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(ICON_FILE, encodePng(ICON_SIZE, drawIcon(ICON_SIZE)));
  mkdirSync(LINUX_ICONS, { recursive: true });
  for (const size of LINUX_ICON_SIZES) {
    writeFileSync(new URL(`${size}x${size}.png`, LINUX_ICONS), encodePng(size, drawIcon(size)));
  }
  console.log(
    `Wrote resources/icon.png, ${ICON_SIZE}×${ICON_SIZE}, and resources/icons/ (${LINUX_ICON_SIZES.join(', ')}).`,
  );
}
