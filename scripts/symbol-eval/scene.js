// Browser side of scripts/make-symbol-eval.ts: renders dice scenes with three.js (WebGL in
// headless Chromium) — a renderer, symbol families, tables and lights that the face embedder's
// training (models/training/, OpenCV) never used. Everything is seeded, so a set is reproducible.
import * as THREE from 'three';
import { RoundedBoxGeometry } from 'three/addons/geometries/RoundedBoxGeometry.js';

// ---------- seeded randomness ----------
export function rng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    range: (a, b) => a + (b - a) * next(),
    int: (a, b) => a + Math.floor(next() * (b - a)),
    pick: (list) => list[Math.floor(next() * list.length)],
    shuffle: (list) => {
      const l = [...list];
      for (let i = l.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [l[i], l[j]] = [l[j], l[i]];
      }
      return l;
    },
  };
}

const hsl = (h, s, l) => `hsl(${h.toFixed(0)} ${s.toFixed(0)}% ${l.toFixed(0)}%)`;

/** A set's colours: die body and ink far apart in lightness, as makers print them. */
export function setColours(r) {
  const dark = r.next() < 0.4;
  const die = dark ? hsl(r.range(0, 360), r.range(0, 70), r.range(8, 30)) : hsl(r.range(0, 360), r.range(0, 60), r.range(72, 95));
  const ink = dark ? hsl(r.range(0, 360), r.range(0, 90), r.range(70, 92)) : hsl(r.range(0, 360), r.range(30, 90), r.range(12, 40));
  const accent = hsl(r.range(0, 360), r.range(60, 95), r.range(40, 60));
  return { die, ink, accent };
}

// ---------- symbol families never used in training ----------

function blob(ctx, r, cx, cy, rad) {
  const n = r.int(5, 9);
  const pts = [];
  for (let i = 0; i < n; i++) {
    const a = (i / n) * Math.PI * 2;
    const d = rad * r.range(0.55, 1.0);
    pts.push([cx + d * Math.cos(a), cy + d * Math.sin(a)]);
  }
  ctx.beginPath();
  const mid = (a, b) => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  let m = mid(pts[n - 1], pts[0]);
  ctx.moveTo(m[0], m[1]);
  for (let i = 0; i < n; i++) {
    const p = pts[i];
    const q = mid(p, pts[(i + 1) % n]);
    ctx.quadraticCurveTo(p[0], p[1], q[0], q[1]);
  }
  ctx.closePath();
}

const EMBLEM_PARTS = [
  // crescent
  (ctx, r, s, c) => {
    const R = s * r.range(0.25, 0.34);
    const a = r.range(0, Math.PI * 2);
    ctx.fillStyle = c.ink;
    ctx.beginPath();
    ctx.arc(s / 2, s / 2, R, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = c.die;
    ctx.beginPath();
    ctx.arc(s / 2 + Math.cos(a) * R * 0.5, s / 2 + Math.sin(a) * R * 0.5, R * 0.85, 0, Math.PI * 2);
    ctx.fill();
  },
  // heart
  (ctx, r, s, c) => {
    const k = s * r.range(0.3, 0.38);
    ctx.save();
    ctx.translate(s / 2, s / 2);
    ctx.rotate(r.range(-0.6, 0.6));
    ctx.fillStyle = c.ink;
    ctx.beginPath();
    ctx.moveTo(0, k * 0.9);
    ctx.bezierCurveTo(-k * 1.4, -k * 0.1, -k * 0.6, -k * 1.1, 0, -k * 0.4);
    ctx.bezierCurveTo(k * 0.6, -k * 1.1, k * 1.4, -k * 0.1, 0, k * 0.9);
    ctx.fill();
    ctx.restore();
  },
  // lightning bolt
  (ctx, r, s, c) => {
    ctx.save();
    ctx.translate(s / 2, s / 2);
    ctx.rotate(r.range(-0.5, 0.5));
    const k = s * 0.36;
    ctx.fillStyle = c.ink;
    ctx.beginPath();
    ctx.moveTo(k * 0.15, -k);
    ctx.lineTo(-k * 0.55, k * 0.12);
    ctx.lineTo(-k * 0.02, k * 0.12);
    ctx.lineTo(-k * 0.2, k);
    ctx.lineTo(k * 0.55, -k * 0.15);
    ctx.lineTo(k * 0.02, -k * 0.15);
    ctx.closePath();
    ctx.fill();
    ctx.restore();
  },
  // spiral
  (ctx, r, s, c) => {
    ctx.strokeStyle = c.ink;
    ctx.lineWidth = s * r.range(0.035, 0.06);
    ctx.lineCap = 'round';
    ctx.beginPath();
    const turns = r.range(2, 3.2);
    for (let t = 0; t <= 1; t += 0.01) {
      const a = t * turns * Math.PI * 2;
      const d = t * s * 0.34;
      const x = s / 2 + d * Math.cos(a);
      const y = s / 2 + d * Math.sin(a);
      if (t === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.stroke();
  },
  // eye: almond with pupil
  (ctx, r, s, c) => {
    ctx.save();
    ctx.translate(s / 2, s / 2);
    ctx.rotate(r.range(0, Math.PI));
    const w = s * 0.38;
    const h = s * r.range(0.16, 0.24);
    ctx.fillStyle = c.ink;
    ctx.beginPath();
    ctx.moveTo(-w, 0);
    ctx.quadraticCurveTo(0, -h * 2, w, 0);
    ctx.quadraticCurveTo(0, h * 2, -w, 0);
    ctx.fill();
    ctx.fillStyle = c.die;
    ctx.beginPath();
    ctx.arc(0, 0, h * 0.7, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = c.accent;
    ctx.beginPath();
    ctx.arc(0, 0, h * 0.35, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
  },
  // blob with a hole
  (ctx, r, s, c) => {
    ctx.fillStyle = c.ink;
    blob(ctx, r, s / 2, s / 2, s * 0.36);
    ctx.fill();
    ctx.fillStyle = c.die;
    blob(ctx, r, s / 2 + r.range(-6, 6), s / 2 + r.range(-6, 6), s * 0.13);
    ctx.fill();
  },
  // concentric rings with a gap
  (ctx, r, s, c) => {
    ctx.strokeStyle = c.ink;
    const n = r.int(2, 4);
    ctx.lineWidth = s * 0.045;
    for (let i = 1; i <= n; i++) {
      const a0 = r.range(0, Math.PI * 2);
      ctx.beginPath();
      ctx.arc(s / 2, s / 2, (s * 0.36 * i) / n, a0, a0 + r.range(4.2, 5.9));
      ctx.stroke();
    }
  },
  // chevrons
  (ctx, r, s, c) => {
    ctx.save();
    ctx.translate(s / 2, s / 2);
    ctx.rotate(r.range(0, Math.PI * 2));
    ctx.strokeStyle = c.ink;
    ctx.lineWidth = s * 0.07;
    ctx.lineJoin = 'miter';
    const n = r.int(1, 4);
    for (let i = 0; i < n; i++) {
      const y = (i - (n - 1) / 2) * s * 0.2;
      ctx.beginPath();
      ctx.moveTo(-s * 0.28, y + s * 0.12);
      ctx.lineTo(0, y - s * 0.1);
      ctx.lineTo(s * 0.28, y + s * 0.12);
      ctx.stroke();
    }
    ctx.restore();
  },
  // key-like: ring and a stem with teeth
  (ctx, r, s, c) => {
    ctx.save();
    ctx.translate(s / 2, s / 2);
    ctx.rotate(r.range(0, Math.PI * 2));
    ctx.strokeStyle = c.ink;
    ctx.fillStyle = c.ink;
    ctx.lineWidth = s * 0.06;
    ctx.beginPath();
    ctx.arc(-s * 0.2, 0, s * 0.13, 0, Math.PI * 2);
    ctx.stroke();
    ctx.fillRect(-s * 0.07, -s * 0.03, s * 0.4, s * 0.06);
    ctx.fillRect(s * 0.2, 0, s * 0.05, s * 0.12);
    ctx.fillRect(s * 0.28, 0, s * 0.05, s * 0.09);
    ctx.restore();
  },
  // drop / leaf
  (ctx, r, s, c) => {
    ctx.save();
    ctx.translate(s / 2, s / 2);
    ctx.rotate(r.range(0, Math.PI * 2));
    ctx.fillStyle = c.ink;
    const k = s * 0.36;
    ctx.beginPath();
    ctx.moveTo(0, -k);
    ctx.bezierCurveTo(k * 0.9, -k * 0.1, k * 0.6, k, 0, k);
    ctx.bezierCurveTo(-k * 0.6, k, -k * 0.9, -k * 0.1, 0, -k);
    ctx.fill();
    if (r.next() < 0.5) {
      ctx.strokeStyle = c.die;
      ctx.lineWidth = s * 0.03;
      ctx.beginPath();
      ctx.moveTo(0, -k * 0.6);
      ctx.lineTo(0, k * 0.85);
      ctx.stroke();
    }
    ctx.restore();
  },
];

// Characters whose turns look alike (6/9, M/W, n/u…) are left out: a die can land at any angle.
const GLYPHS = 'ABCEFGJKLPQRTUVYaefghkmrty23457&?@#%$§¶€£¥!{}<>'.split('');
const GLYPH_FONTS = ['Liberation Serif', 'Liberation Sans', 'Liberation Mono', 'Liberation Sans Narrow'];

/** The six (or n) faces of one evaluation set: draw(ctx, size) functions and labels. */
export function symbolSet(family, seed, n = 6) {
  const r = rng(seed);
  const colours = setColours(r);
  if (family === 'emblems') {
    const kinds = r.shuffle(EMBLEM_PARTS.map((_, i) => i)).slice(0, n);
    return {
      colours,
      faces: kinds.map((kind, i) => {
        const faceSeed = Math.floor(r.next() * 1e9);
        return {
          id: `e${i + 1}`,
          label: `Emblem ${i + 1}`,
          draw: (ctx, s) => EMBLEM_PARTS[kind](ctx, rng(faceSeed), s, colours),
        };
      }),
    };
  }
  if (family === 'glyphs') {
    const chars = r.shuffle(GLYPHS).slice(0, n);
    const font = r.pick(GLYPH_FONTS);
    const weight = r.pick(['normal', 'bold']);
    const style = r.pick(['normal', 'normal', 'italic']);
    return {
      colours,
      faces: chars.map((ch, i) => ({
        id: `g${i + 1}`,
        label: ch,
        draw: (ctx, s) => {
          ctx.fillStyle = colours.ink;
          ctx.font = `${style} ${weight} ${Math.round(s * 0.62)}px "${font}"`;
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          ctx.fillText(ch, s / 2, s / 2 + s * 0.03);
        },
      })),
    };
  }
  throw new Error(`unknown symbol family ${family}`);
}

// ---------- standard pip dice (the standard reader's unseen-renderer check) ----------

// pip centres on a face of side 1, by value; `o` is how far the corner pips sit from the edge
const PIP_LAYOUT = {
  1: () => [[0.5, 0.5]],
  2: (o) => [[o, o], [1 - o, 1 - o]],
  3: (o) => [[o, o], [0.5, 0.5], [1 - o, 1 - o]],
  4: (o) => [[o, o], [1 - o, o], [o, 1 - o], [1 - o, 1 - o]],
  5: (o) => [[o, o], [1 - o, o], [o, 1 - o], [1 - o, 1 - o], [0.5, 0.5]],
  6: (o) => [[o, o], [1 - o, o], [o, 0.5], [1 - o, 0.5], [o, 1 - o], [1 - o, 1 - o]],
};

/** A maker's pip dice: body and pip colours, pip shape and size, and how the 1 is marked. */
function pipStyle(r) {
  const classic = [
    { die: '#f4f1ea', ink: '#151515' },
    { die: '#141414', ink: '#f2f2f2' },
    { die: hsl(r.range(350, 365) % 360, r.range(60, 85), r.range(30, 42)), ink: '#f5f5f5' },
    { die: '#efe4c8', ink: '#2a1b10' },
    { die: hsl(r.range(200, 230), r.range(50, 80), r.range(25, 40)), ink: '#f0f0f0' },
  ];
  const colours = r.next() < 0.6 ? { ...r.pick(classic), accent: '#c8141e' } : setColours(r);
  const onePip = r.next();
  return {
    colours,
    shape: r.pick(['round', 'round', 'round', 'round', 'round', 'round', 'round', 'square', 'square', 'ring']),
    radius: r.range(0.075, 0.105),
    offset: r.range(0.21, 0.28),
    one: onePip < 0.2 ? 'big-red' : onePip < 0.35 ? 'logo' : 'pip',
    logo: Math.floor(r.next() * EMBLEM_PARTS.length),
    logoSeed: Math.floor(r.next() * 1e9),
    // pips drilled and painted: a darker rim shows their depth
    rim: r.next() < 0.6,
  };
}

function drawPips(ctx, s, value, style) {
  const c = style.colours;
  if (value === 1 && style.one === 'logo') {
    EMBLEM_PARTS[style.logo](ctx, rng(style.logoSeed), s, c);
    return;
  }
  const big = value === 1 && style.one === 'big-red';
  const rad = s * style.radius * (big ? 1.7 : 1);
  for (const [u, v] of PIP_LAYOUT[value](style.offset)) {
    const x = u * s;
    const y = v * s;
    ctx.fillStyle = big ? c.accent : c.ink;
    ctx.strokeStyle = big ? c.accent : c.ink;
    ctx.beginPath();
    if (style.shape === 'square') ctx.roundRect(x - rad, y - rad, 2 * rad, 2 * rad, rad * 0.35);
    else ctx.arc(x, y, rad, 0, Math.PI * 2);
    if (style.shape === 'ring') {
      ctx.lineWidth = rad * 0.45;
      ctx.stroke();
    } else ctx.fill();
    if (style.rim) {
      ctx.strokeStyle = 'rgba(0,0,0,0.35)';
      ctx.lineWidth = rad * 0.18;
      ctx.beginPath();
      ctx.arc(x, y, rad * 1.02, Math.PI * 0.9, Math.PI * 1.9);
      ctx.stroke();
    }
  }
}

/** `n` pip-dice styles; each has the faces 1…6 (face index = value − 1). */
export function pipSet(seed, n = 3) {
  const r = rng(seed);
  return Array.from({ length: n }, () => {
    const style = pipStyle(r);
    return {
      colours: style.colours,
      description: `${style.colours.die} die, ${style.colours.ink} ${style.shape} pips, the 1 ${style.one === 'pip' ? 'a pip' : style.one === 'logo' ? 'a logo' : 'a big red pip'}`,
      faces: [1, 2, 3, 4, 5, 6].map((v) => ({ id: String(v), label: String(v), value: v, draw: (ctx, s) => drawPips(ctx, s, v, style) })),
    };
  });
}

// ---------- face textures ----------

function faceCanvas(size, colours, draw) {
  const c = document.createElement('canvas');
  c.width = c.height = size;
  const ctx = c.getContext('2d');
  ctx.fillStyle = colours.die;
  ctx.fillRect(0, 0, size, size);
  if (draw) draw(ctx, size);
  return c;
}

/** Face textures from images (the kits' art): the art is the whole face, die colour included. */
function imageCanvas(size, image, dieColour) {
  const c = document.createElement('canvas');
  c.width = c.height = size;
  const ctx = c.getContext('2d');
  ctx.fillStyle = dieColour;
  ctx.fillRect(0, 0, size, size);
  ctx.drawImage(image, 0, 0, size, size);
  return c;
}

// ---------- tables ----------

function tableTexture(r) {
  const size = 512;
  const c = document.createElement('canvas');
  c.width = c.height = size;
  const ctx = c.getContext('2d');
  const kind = r.pick(['wood', 'felt', 'marble', 'cloth', 'paper']);
  const base = kind === 'wood' ? hsl(r.range(20, 40), r.range(30, 60), r.range(25, 60))
    : kind === 'felt' ? hsl(r.pick([120, 140, 0, 220, 30]), r.range(30, 70), r.range(15, 40))
    : kind === 'marble' ? hsl(r.range(0, 360), r.range(0, 10), r.range(70, 92))
    : kind === 'cloth' ? hsl(r.range(0, 360), r.range(20, 70), r.range(30, 80))
    : hsl(r.range(30, 60), r.range(0, 25), r.range(80, 96));
  ctx.fillStyle = base;
  ctx.fillRect(0, 0, size, size);
  const img = ctx.getImageData(0, 0, size, size);
  const d = img.data;
  const f1 = r.range(0.01, 0.05);
  const f2 = r.range(0.1, 0.4);
  const phase = r.range(0, 100);
  // the grain from its own stream seeded by what was drawn, so the scene's other draws stay as they were
  const grain = rng(Math.floor(phase * 1e6) ^ Math.floor(f1 * 1e9)).next;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let v = 0;
      if (kind === 'wood') v = Math.sin((y + Math.sin(x * f1 + phase) * 20) * f2) * 18 + (grain() - 0.5) * 10;
      else if (kind === 'felt') v = (grain() - 0.5) * 26;
      else if (kind === 'marble') v = Math.sin((x + y) * f1 + Math.sin(y * f1 * 3 + phase) * 4) * 22;
      else if (kind === 'cloth') v = ((Math.floor(x / 32) + Math.floor(y / 32)) % 2 ? 14 : -14) + (grain() - 0.5) * 12;
      else v = (grain() - 0.5) * 8;
      const i = (y * size + x) * 4;
      d[i] += v;
      d[i + 1] += v;
      d[i + 2] += v;
    }
  }
  ctx.putImageData(img, 0, 0);
  const t = new THREE.CanvasTexture(c);
  t.wrapS = t.wrapT = THREE.RepeatWrapping;
  t.repeat.set(r.range(1, 4), r.range(1, 4));
  t.colorSpace = THREE.SRGBColorSpace;
  return t;
}

// ---------- scenes ----------

let renderer = null;
function getRenderer(w, h) {
  if (!renderer) {
    renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    renderer.shadowMap.enabled = true;
    renderer.shadowMap.type = THREE.PCFSoftShadowMap;
    document.body.appendChild(renderer.domElement);
  }
  renderer.setPixelRatio(1);
  renderer.setSize(w, h, false);
  return renderer;
}

/**
 * Renders one photo. spec: { seed, width, height, dice: [faceIndex...] (the face each die shows
 * up), standard (pip dice: opposite faces sum to 7), styles: [styleIndex...] (with several
 * styles: `textures` is then one face list per style), minGap (least distance between dice
 * centres, in die sides; 1.65 unless given), spread (half the width of the table area the dice are
 * dropped on, in die sides; unless given 1.4 + 0.35 per die, and 0.6 for one die), near (the
 * camera's distance scaled by it: below 1 a phone held closer, the dice larger; 1 unless given) }.
 * Returns { dataUrl, boxes: [{ x, y, w, h }] } in the order of spec.dice.
 */
export function renderScene(spec, textures) {
  const r = rng(spec.seed);
  const { width, height } = spec;
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x202020);

  const table = new THREE.Mesh(new THREE.PlaneGeometry(40, 40), new THREE.MeshStandardMaterial({ map: tableTexture(r), roughness: r.range(0.5, 1) }));
  table.rotation.x = -Math.PI / 2;
  table.receiveShadow = true;
  scene.add(table);

  // lights: sky/ground fill, a key light with shadows, sometimes a warm or cool lamp
  const warm = r.range(-1, 1);
  const tint = new THREE.Color().setHSL(warm > 0 ? 0.09 : 0.6, Math.abs(warm) * 0.5, 0.5 + 0.5 * (1 - Math.abs(warm)));
  scene.add(new THREE.HemisphereLight(0xffffff, 0x404040, r.range(0.4, 1.4)));
  const key = new THREE.DirectionalLight(tint, r.range(1.2, 3.2));
  const ka = r.range(0, Math.PI * 2);
  const ke = r.range(0.5, 1.4);
  key.position.set(Math.cos(ka) * Math.cos(ke) * 10, Math.sin(ke) * 10, Math.sin(ka) * Math.cos(ke) * 10);
  key.castShadow = true;
  key.shadow.mapSize.set(1024, 1024);
  key.shadow.camera.left = key.shadow.camera.bottom = -8;
  key.shadow.camera.right = key.shadow.camera.top = 8;
  key.shadow.radius = r.range(1, 5);
  scene.add(key);
  if (r.next() < 0.5) {
    const lamp = new THREE.PointLight(new THREE.Color().setHSL(r.range(0, 1), 0.6, 0.6), r.range(5, 30), 20);
    lamp.position.set(r.range(-4, 4), r.range(2, 5), r.range(-4, 4));
    scene.add(lamp);
  }

  const radius = r.range(0.06, 0.16);
  const geometry = new RoundedBoxGeometry(1, 1, 1, 4, radius);
  const meshes = [];
  const placed = [];
  const spread = spec.spread ?? (spec.dice.length === 1 ? 0.6 : 1.4 + spec.dice.length * 0.35);
  for (const [k, up] of spec.dice.entries()) {
    // box material order: +x, -x, +y (top), -y, +z, -z
    const faces = spec.styles ? textures[spec.styles[k]] : textures;
    let sides;
    if (spec.standard) {
      // a standard die: opposite faces sum to 7 (face index = value − 1, so index i faces 5 − i)
      const pair = r.pick([0, 1, 2, 3, 4, 5].filter((i) => i !== up && i !== 5 - up));
      const other = [0, 1, 2, 3, 4, 5].find((i) => i !== up && i !== 5 - up && i !== pair && i !== 5 - pair);
      sides = [faces[pair], faces[5 - pair], faces[up], faces[5 - up], faces[other], faces[5 - other]];
    } else {
      // the other faces go round the sides
      const order = r.shuffle(faces.filter((_, i) => i !== up));
      sides = [order[0], order[1], faces[up], order[2] ?? order[0], order[3] ?? order[1], order[4] ?? order[0]];
    }
    const mats = sides.map(
      (t) => new THREE.MeshStandardMaterial({ map: t, roughness: r.range(0.25, 0.7), metalness: 0 }),
    );
    const mesh = new THREE.Mesh(geometry, mats);
    let x = 0;
    let z = 0;
    for (let tries = 0; tries < 200; tries++) {
      x = r.range(-spread, spread);
      z = r.range(-spread * 0.75, spread * 0.75);
      if (placed.every(([px, pz]) => Math.hypot(px - x, pz - z) > (spec.minGap ?? 1.65))) break;
    }
    placed.push([x, z]);
    mesh.position.set(x, 0.5, z);
    mesh.rotation.set(r.range(-0.03, 0.03), r.range(0, Math.PI * 2), r.range(-0.03, 0.03));
    mesh.castShadow = true;
    mesh.receiveShadow = true;
    scene.add(mesh);
    meshes.push(mesh);
  }

  const camera = new THREE.PerspectiveCamera(r.range(40, 62), width / height, 0.1, 100);
  const elevation = r.range(0.85, 1.5); // 49°–86° above the table
  const azimuth = r.range(0, Math.PI * 2);
  let dist = spec.dice.length === 1 ? r.range(3.2, 6) : r.range(4.5, 6.5) + spec.dice.length * 0.3;
  dist *= spec.near ?? 1;
  const target = new THREE.Vector3(r.range(-0.3, 0.3), 0.3, r.range(-0.3, 0.3));
  const project = () => {
    camera.position.set(Math.cos(azimuth) * Math.cos(elevation) * dist, Math.sin(elevation) * dist, Math.sin(azimuth) * Math.cos(elevation) * dist).add(target);
    camera.lookAt(target);
    camera.updateMatrixWorld();
    return meshes.map((mesh) => {
      const pos = mesh.geometry.attributes.position;
      const v = new THREE.Vector3();
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      mesh.updateMatrixWorld();
      for (let i = 0; i < pos.count; i++) {
        v.fromBufferAttribute(pos, i).applyMatrix4(mesh.matrixWorld).project(camera);
        const px = (v.x + 1) / 2 * width;
        const py = (1 - v.y) / 2 * height;
        x0 = Math.min(x0, px); y0 = Math.min(y0, py); x1 = Math.max(x1, px); y1 = Math.max(y1, py);
      }
      return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
    });
  };
  // back the camera off until every die is wholly in the picture
  let boxes = project();
  for (let i = 0; i < 20 && boxes.some((b) => b.x < 0.02 * width || b.y < 0.02 * height || b.x + b.w > 0.98 * width || b.y + b.h > 0.98 * height); i++) {
    dist *= 1.1;
    boxes = project();
  }
  renderer = getRenderer(width, height);
  renderer.toneMapping = THREE.ACESFilmicToneMapping;
  renderer.toneMappingExposure = r.range(0.7, 1.3);
  renderer.render(scene, camera);

  const dataUrl = renderer.domElement.toDataURL('image/png');
  for (const m of meshes) for (const mat of m.material) mat.dispose();
  geometry.dispose();
  table.material.map.dispose();
  return { dataUrl, boxes };
}

/** Face textures for a generated symbol set. */
export function setTextures(set) {
  return set.faces.map((f) => {
    const t = new THREE.CanvasTexture(faceCanvas(256, set.colours, f.draw));
    t.colorSpace = THREE.SRGBColorSpace;
    t.anisotropy = 4;
    return t;
  });
}

/** Face textures from art image URLs (the shipped kits). */
export async function artTextures(urls, dieColour) {
  const images = await Promise.all(urls.map((u) => new Promise((resolve, reject) => {
    const im = new Image();
    im.onload = () => resolve(im);
    im.onerror = () => reject(new Error(`cannot load art ${u.slice(0, 60)}`));
    im.src = u;
  })));
  return images.map((im) => {
    const t = new THREE.CanvasTexture(imageCanvas(256, im, dieColour));
    t.colorSpace = THREE.SRGBColorSpace;
    t.anisotropy = 4;
    return t;
  });
}

/** Face textures for each style of a pip set (pipSet). */
export function pipTextures(styles) {
  return styles.map((style) => setTextures(style));
}

/** The face art of a generated set as PNG data URLs (for the record in the kit folder). */
export function setArt(set) {
  return set.faces.map((f) => faceCanvas(256, set.colours, f.draw).toDataURL('image/png'));
}
