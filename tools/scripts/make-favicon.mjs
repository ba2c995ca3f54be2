// Writes apps/api/src/assets/favicon.ico: the pages' shield logo (pages/icons.ts LOGO, coloured as
// page.css colours it) rasterised at 16, 32 and 48 pixels into PNG images inside one ICO file; and the
// authenticator app's icons (apps/authenticator/src/static/icon-192.png and icon-512.png: the shield
// on an opaque white square, as home screens show app icons). Run it again only when the logo
// changes: `node tools/scripts/make-favicon.mjs`.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const ACCENT = [0x24, 0x57, 0xd6];
const WHITE = [0xff, 0xff, 0xff];

function cubic(p0, p1, p2, p3, steps = 24) {
  const points = [];
  for (let i = 1; i <= steps; i++) {
    const t = i / steps;
    const u = 1 - t;
    points.push([
      u * u * u * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t * t * t * p3[0],
      u * u * u * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t * t * t * p3[1],
    ]);
  }
  return points;
}

// the shield of the 24×24 logo: M12 2.2 l8 3 v6.1 c0 5-3.4 9.3-8 10.7 -4.6-1.4-8-5.7-8-10.7 V5.2z
const SHIELD = [
  [12, 2.2],
  [20, 5.2],
  [20, 11.3],
  ...cubic([20, 11.3], [20, 16.3], [16.6, 20.6], [12, 22]),
  ...cubic([12, 22], [7.4, 20.6], [4, 16.3], [4, 11.3]),
  [4, 5.2],
];
// the tick: M8.4 12.1 l2.5 2.5 4.8-5, stroke 2.2, round caps
const TICK = [
  [8.4, 12.1],
  [10.9, 14.6],
  [15.7, 9.6],
];
const TICK_HALF_WIDTH = 1.1;

function insidePolygon([x, y], polygon) {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function distanceToSegment([x, y], [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (ax + t * dx), y - (ay + t * dy));
}

/**
 * RGBA pixels of the logo at `size`, each pixel the average of `samples`×`samples` samples. `scale`
 * below 1 leaves a margin around the shield, filled with `background` when given (else transparent).
 */
function render(size, { samples = 8, scale = 1, background = null } = {}) {
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let shield = 0;
      let tick = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const at24 = (p, s) => 12 + (((p + (s + 0.5) / samples) * 24) / size - 12) / scale;
          const point = [at24(px, sx), at24(py, sy)];
          if (!insidePolygon(point, SHIELD)) continue;
          shield++;
          if (Math.min(distanceToSegment(point, TICK[0], TICK[1]), distanceToSegment(point, TICK[1], TICK[2])) <= TICK_HALF_WIDTH) tick++;
        }
      }
      const total = samples * samples;
      const at = (py * size + px) * 4;
      const white = shield === 0 ? 0 : tick / shield;
      if (background) {
        const cover = shield / total;
        for (let c = 0; c < 3; c++) {
          const logo = ACCENT[c] * (1 - white) + WHITE[c] * white;
          pixels[at + c] = Math.round(logo * cover + background[c] * (1 - cover));
        }
        pixels[at + 3] = 255;
        continue;
      }
      for (let c = 0; c < 3; c++) pixels[at + c] = Math.round(ACCENT[c] * (1 - white) + WHITE[c] * white);
      pixels[at + 3] = Math.round((255 * shield) / total);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
function png(size, options) {
  const pixels = render(size, options);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const sizes = [16, 32, 48];
const images = sizes.map(png);
const directory = Buffer.alloc(6 + 16 * sizes.length);
directory.writeUInt16LE(0, 0);
directory.writeUInt16LE(1, 2); // icon
directory.writeUInt16LE(sizes.length, 4);
let offset = directory.length;
sizes.forEach((size, i) => {
  const entry = 6 + 16 * i;
  directory[entry] = size;
  directory[entry + 1] = size;
  directory.writeUInt16LE(1, entry + 4); // colour planes
  directory.writeUInt16LE(32, entry + 6); // bits per pixel
  directory.writeUInt32LE(images[i].length, entry + 8);
  directory.writeUInt32LE(offset, entry + 12);
  offset += images[i].length;
});
const target = new URL('../../apps/api/src/assets/favicon.ico', import.meta.url);
writeFileSync(target, Buffer.concat([directory, ...images]));
console.log(`wrote ${target.pathname} (${offset} bytes)`);

for (const size of [192, 512]) {
  const icon = new URL(`../../apps/authenticator/src/static/icon-${size}.png`, import.meta.url);
  writeFileSync(icon, png(size, { samples: 4, scale: 0.72, background: WHITE }));
  console.log(`wrote ${icon.pathname}`);
}
