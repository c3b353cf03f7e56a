/**
 * The phone's own turns, from its orientation sensor (the `deviceorientation` event): a phone
 * whose screen is locked, or held flat over the table, turns without its camera's frames changing
 * size, and the settle tracker then has no sign that the dice it lost on the way are the dice it
 * read (settle.ts `TURNED_SAME_FACES_MS`). Where the browser gives no orientation (a desktop, iOS
 * without the motion permission) nothing is reported and the table reads as before.
 */

/** A `deviceorientation` reading, in degrees (W3C DeviceOrientation: intrinsic Z-X'-Y''). */
export interface PhoneOrientation {
  alpha: number;
  beta: number;
  gamma: number;
}

type Matrix = [number, number, number, number, number, number, number, number, number];

/** The rotation matrix of an orientation: Rz(alpha) · Rx(beta) · Ry(gamma), row-major. */
function rotation({ alpha, beta, gamma }: PhoneOrientation): Matrix {
  const [a, b, g] = [alpha, beta, gamma].map((d) => (d * Math.PI) / 180) as [number, number, number];
  const [ca, sa, cb, sb, cg, sg] = [Math.cos(a), Math.sin(a), Math.cos(b), Math.sin(b), Math.cos(g), Math.sin(g)];
  return [
    ca * cg - sa * sb * sg, -sa * cb, ca * sg + sa * sb * cg,
    sa * cg + ca * sb * sg, ca * cb, sa * sg - ca * sb * cg,
    -cb * sg, sb, cb * cg,
  ];
}

/**
 * How far, in degrees (0–180), the phone turned about its screen's normal from orientation `a` to
 * `b`: the turn that turns the camera's picture (a phone turned on its side, or turned round flat
 * over the table). Tilting it (to look at the screen) or panning it moves the picture instead.
 */
export function turnAboutScreen(a: PhoneOrientation, b: PhoneOrientation): number {
  const p = rotation(a);
  const q = rotation(b);
  // d = pᵀ q, the turn in the first orientation's own axes; its twist about z
  const d = (i: number, k: number): number => p[i]! * q[k]! + p[3 + i]! * q[3 + k]! + p[6 + i]! * q[6 + k]!;
  return Math.abs((Math.atan2(d(1, 0) - d(0, 1), d(0, 0) + d(1, 1)) * 180) / Math.PI);
}

/** A turn about the screen's normal of at least this many degrees within `PHONE_TURN_MS` is the phone turned (a hand's shake is a few degrees). */
export const PHONE_TURN_DEGREES = 60;
/** How long a turn may take. */
export const PHONE_TURN_MS = 1500;

/**
 * Follows the phone's orientation readings and calls `onTurn` with the reading's time (the
 * performance.now() clock, as camera frames carry) each time it has turned `PHONE_TURN_DEGREES`
 * or more about its screen's normal (`turnAboutScreen`) since a reading at most `PHONE_TURN_MS`
 * before. Pure: feed it the readings.
 */
export class PhoneTurnWatch {
  /** The readings of the last `PHONE_TURN_MS`, oldest first. */
  private readings: { orientation: PhoneOrientation; t: number }[] = [];

  constructor(private readonly onTurn: (t: number) => void) {}

  reading(orientation: PhoneOrientation | null, t: number): void {
    if (!orientation) return;
    this.readings = this.readings.filter((r) => t - r.t <= PHONE_TURN_MS);
    const oldest = this.readings[0];
    if (oldest && turnAboutScreen(oldest.orientation, orientation) >= PHONE_TURN_DEGREES) {
      this.onTurn(t);
      this.readings = [];
    }
    this.readings.push({ orientation, t });
  }
}

/** Listens to `target`'s `deviceorientation` events and calls `onTurn` when the phone turned (`PhoneTurnWatch`); returns the function that stops listening. */
export function watchPhoneTurns(target: Pick<Window, 'addEventListener' | 'removeEventListener'>, onTurn: (t: number) => void): () => void {
  const watch = new PhoneTurnWatch(onTurn);
  const listener = (e: Event): void => {
    const { alpha, beta, gamma } = e as DeviceOrientationEvent;
    watch.reading(alpha === null || beta === null || gamma === null ? null : { alpha, beta, gamma }, e.timeStamp);
  };
  target.addEventListener('deviceorientation', listener);
  return () => target.removeEventListener('deviceorientation', listener);
}
