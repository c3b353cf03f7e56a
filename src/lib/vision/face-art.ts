/**
 * A kit's reference art as the embedder would see it on a die: the face image painted on the
 * top of a die seen from above at several turns and slight tilts (a side showing), on a plain
 * table, cut out by the same crop rule as a detected die. These renders become the kit's
 * "art" prototypes before a player has taught any photo.
 */
import type { RgbaImage } from './types.ts';

export interface ArtView {
  /** Turn of the die about the vertical, radians. */
  turn: number;
  /** How much of a side shows below the top face, as a fraction of the face side (0 = straight down). */
  tilt: number;
  /** Direction in which the side shows, radians. */
  sideDirection: number;
}

/** Twelve views: every 30° of turn, straight down and tilted alternately. */
export const DEFAULT_ART_VIEWS: readonly ArtView[] = Array.from({ length: 12 }, (_, i) => ({
  turn: (i * Math.PI) / 6,
  tilt: [0, 0.18, 0.32][i % 3]!,
  sideDirection: (i * 7 * Math.PI) / 6 + Math.PI / 2,
}));

const TABLE = [0.46, 0.45, 0.43];

function sample(art: RgbaImage, u: number, v: number): [number, number, number, number] {
  // bilinear in art pixels, u, v in [0, 1]
  const x = Math.min(art.width - 1, Math.max(0, u * art.width - 0.5));
  const y = Math.min(art.height - 1, Math.max(0, v * art.height - 0.5));
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(art.width - 1, x0 + 1);
  const y1 = Math.min(art.height - 1, y0 + 1);
  const fx = x - x0;
  const fy = y - y0;
  const out: [number, number, number, number] = [0, 0, 0, 0];
  const d = art.data;
  for (let c = 0; c < 4; c++) {
    const a = d[(y0 * art.width + x0) * 4 + c]! * (1 - fx) + d[(y0 * art.width + x1) * 4 + c]! * fx;
    const b = d[(y1 * art.width + x0) * 4 + c]! * (1 - fx) + d[(y1 * art.width + x1) * 4 + c]! * fx;
    out[c] = (a * (1 - fy) + b * fy) / 255;
  }
  return out;
}

/** The colour of the die's body: the art's most opaque pixel near its centre-left edge. */
function dieColour(art: RgbaImage): [number, number, number] {
  const [r, g, b] = sample(art, 0.08, 0.5);
  return [r, g, b];
}

function cross(ax: number, ay: number, bx: number, by: number): number {
  return ax * by - ay * bx;
}

function convexHull(points: Array<[number, number]>): Array<[number, number]> {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const half = (list: Array<[number, number]>): Array<[number, number]> => {
    const h: Array<[number, number]> = [];
    for (const q of list) {
      while (h.length >= 2) {
        const a = h[h.length - 2]!;
        const b = h[h.length - 1]!;
        if (cross(b[0] - a[0], b[1] - a[1], q[0] - a[0], q[1] - a[1]) > 0) break;
        h.pop();
      }
      h.push(q);
    }
    return h;
  };
  const lower = half(p);
  const upper = half([...p].reverse());
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

function insideConvex(poly: Array<[number, number]>, x: number, y: number): boolean {
  let sign = 0;
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i]!;
    const b = poly[(i + 1) % poly.length]!;
    const c = cross(b[0] - a[0], b[1] - a[1], x - a[0], y - a[1]);
    if (c !== 0) {
      if (sign === 0) sign = Math.sign(c);
      else if (Math.sign(c) !== sign) return false;
    }
  }
  return true;
}

/**
 * Renders `art` (a square face image, RGBA) on a die for each view, as embedder crops:
 * returns views.length × 3 × k × k floats, planar RGB in [0, 1].
 */
export function renderArtOnDice(art: RgbaImage, k: number, cropMargin: number, views: readonly ArtView[] = DEFAULT_ART_VIEWS): Float32Array {
  const out = new Float32Array(views.length * 3 * k * k);
  const body = dieColour(art);
  const plane = k * k;
  views.forEach((view, vi) => {
    const cos = Math.cos(view.turn);
    const sin = Math.sin(view.turn);
    // face corners for a unit face centred at the origin
    const corners: Array<[number, number]> = [
      [-0.5, -0.5],
      [0.5, -0.5],
      [0.5, 0.5],
      [-0.5, 0.5],
    ].map(([x, y]) => [x! * cos - y! * sin, x! * sin + y! * cos]);
    const dx = Math.cos(view.sideDirection) * view.tilt;
    const dy = Math.sin(view.sideDirection) * view.tilt;
    const hull = convexHull([...corners, ...corners.map(([x, y]): [number, number] => [x + dx, y + dy])]);
    const xs = hull.map((p) => p[0]);
    const ys = hull.map((p) => p[1]);
    const minX = Math.min(...xs);
    const maxX = Math.max(...xs);
    const minY = Math.min(...ys);
    const maxY = Math.max(...ys);
    // the whole die's box, squared and enlarged, fills the crop
    const scale = k / cropMargin / Math.max(maxX - minX, maxY - minY);
    const cx = (minX + maxX) / 2;
    const cy = (minY + maxY) / 2;
    const base = vi * 3 * plane;
    for (let py = 0; py < k; py++) {
      for (let px = 0; px < k; px++) {
        const x = (px + 0.5 - k / 2) / scale + cx;
        const y = (py + 0.5 - k / 2) / scale + cy;
        // into the face's own frame
        const u = x * cos + y * sin + 0.5;
        const v = -x * sin + y * cos + 0.5;
        let rgb: [number, number, number] = [TABLE[0]!, TABLE[1]!, TABLE[2]!];
        const onBody = insideConvex(hull, x, y);
        if (onBody) rgb = [body[0] * 0.62, body[1] * 0.62, body[2] * 0.62];
        if (u >= 0 && u <= 1 && v >= 0 && v <= 1) {
          const [r, g, b, a] = sample(art, u, v);
          rgb = [r * a + rgb[0] * (1 - a), g * a + rgb[1] * (1 - a), b * a + rgb[2] * (1 - a)];
        }
        const o = base + py * k + px;
        out[o] = rgb[0];
        out[o + plane] = rgb[1];
        out[o + 2 * plane] = rgb[2];
      }
    }
  });
  return out;
}
