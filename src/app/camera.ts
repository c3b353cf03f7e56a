/**
 * The camera: the rear camera of a phone, or whatever webcam a desktop has.
 *
 * - Constraints are `ideal`, never `exact` (except for a camera the player picked), and each
 *   request that a device cannot meet falls back to a looser one, so no device is refused for
 *   being unable to give 1280×720.
 * - Every failure becomes a `CameraError` with a `kind` the UI turns into a clear screen that
 *   offers the dice pad instead.
 * - `CameraSession` stops the camera while the page is hidden (battery, privacy, the LED) and
 *   starts it again when the page comes back.
 * - A live camera can go quiet without ending: its track `mute`d (iOS during a call or Siri, or
 *   another app taking the camera; Android's camera privacy switch) and later unmuted. The live
 *   state says so (`muted`); `quietCamera.ts` tells the player, and `restart()` opens it anew.
 */

export type CameraErrorKind =
  /** The player or the browser refused access. */
  | 'denied'
  /** There is no camera. */
  | 'absent'
  /** A camera exists but could not be started (in use by another app, hardware error). */
  | 'unavailable'
  /** The camera was live and stopped (taken by another app, unplugged). */
  | 'stopped'
  /** Not a secure context (camera access needs https or localhost). */
  | 'insecure'
  /** This browser has no camera API. */
  | 'unsupported';

const MESSAGES: Record<CameraErrorKind, string> = {
  denied: 'Rollcall may not use the camera. Allow camera access in the browser’s site settings, or enter the dice by hand.',
  absent: 'No camera was found on this device. Enter the dice by hand with the dice pad.',
  unavailable: 'The camera could not be started: another app may be using it. Close that app and try again, or enter the dice by hand.',
  stopped: 'The camera stopped: another app may have taken it, or it was unplugged. Try it again, or enter the dice by hand.',
  insecure: 'The camera only works when Rollcall is opened over https. Enter the dice by hand with the dice pad.',
  unsupported: 'This browser cannot use a camera. Enter the dice by hand with the dice pad.',
};

export class CameraError extends Error {
  override readonly name = 'CameraError';
  constructor(
    readonly kind: CameraErrorKind,
    readonly detail = '',
  ) {
    super(MESSAGES[kind]);
  }
}

/** Maps a getUserMedia failure to what the player can do about it. */
export function cameraErrorFrom(err: unknown): CameraError {
  if (err instanceof CameraError) return err;
  // DOMException, OverconstrainedError (not always an Error subclass) or a plain object: go by name.
  const named = typeof err === 'object' && err !== null ? (err as { name?: unknown; message?: unknown }) : {};
  const name = typeof named.name === 'string' ? named.name : '';
  const detail = typeof named.message === 'string' ? named.message : String(err);
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return new CameraError('denied', detail);
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return new CameraError('absent', detail);
    default:
      return new CameraError('unavailable', detail);
  }
}

/** What a device's camera API is to this module (navigator.mediaDevices, or a test double). */
export type MediaDevicesLike = Pick<MediaDevices, 'getUserMedia' | 'enumerateDevices'>;

export interface CameraRequest {
  /** A camera the player picked in Settings; when it is gone, the rear camera is used. */
  deviceId?: string | null;
  /** Frame size to aim for; the camera gives what it can. */
  idealWidth?: number;
  idealHeight?: number;
}

/** The constraints to try, most wanted first. Only a picked deviceId is ever `exact`. */
export function constraintLadder(request: CameraRequest = {}): MediaStreamConstraints[] {
  const width = request.idealWidth ?? 1280;
  const height = request.idealHeight ?? 720;
  const rear: MediaTrackConstraints = { facingMode: { ideal: 'environment' } };
  const ladder: MediaTrackConstraints[] = [];
  if (request.deviceId) {
    ladder.push({ deviceId: { exact: request.deviceId }, width: { ideal: width }, height: { ideal: height } });
  }
  ladder.push({ ...rear, width: { ideal: width }, height: { ideal: height }, frameRate: { ideal: 30 } });
  ladder.push({ ...rear, width: { ideal: 640 }, height: { ideal: 480 } });
  ladder.push(rear);
  return [...ladder.map((video) => ({ video, audio: false })), { video: true, audio: false }];
}

/** Errors after which a looser request may still succeed. */
function worthRetrying(err: CameraError): boolean {
  return err.kind === 'absent' || err.kind === 'unavailable';
}

function environment(): { devices: MediaDevicesLike | undefined; secure: boolean } {
  const nav = typeof navigator === 'undefined' ? undefined : navigator;
  return {
    devices: nav?.mediaDevices,
    secure: typeof isSecureContext === 'undefined' ? true : isSecureContext,
  };
}

/**
 * Opens a camera stream, falling back through looser constraints. Throws a `CameraError`;
 * a refusal by the player is final (asking again would only pester them).
 */
export async function openCameraStream(request: CameraRequest = {}, devices?: MediaDevicesLike): Promise<MediaStream> {
  const env = environment();
  const media = devices ?? env.devices;
  if (!media || typeof media.getUserMedia !== 'function') {
    throw new CameraError(env.secure ? 'unsupported' : 'insecure');
  }
  let last: CameraError = new CameraError('absent');
  for (const constraints of constraintLadder(request)) {
    try {
      return await media.getUserMedia(constraints);
    } catch (err) {
      last = cameraErrorFrom(err);
      if (!worthRetrying(last)) throw last;
    }
  }
  throw last;
}

export interface CameraInfo {
  deviceId: string;
  label: string;
}

/** The cameras, for Settings. Labels are empty until the player has allowed the camera once. */
export async function listCameras(devices?: MediaDevicesLike): Promise<CameraInfo[]> {
  const media = devices ?? environment().devices;
  if (!media) return [];
  const all = await media.enumerateDevices();
  return all
    .filter((d) => d.kind === 'videoinput')
    .map((d, i) => ({ deviceId: d.deviceId, label: d.label || `Camera ${i + 1}` }));
}

interface TorchCapabilities extends MediaTrackCapabilities {
  torch?: boolean;
}

/** Whether the track's camera has a torch (phones' rear cameras in Chrome on Android). */
function torchSupported(track: MediaStreamTrack): boolean {
  const caps = typeof track.getCapabilities === 'function' ? (track.getCapabilities() as TorchCapabilities) : {};
  return caps.torch === true;
}

/** Asks the track's camera to turn its torch on or off. */
async function applyTorch(track: MediaStreamTrack, on: boolean): Promise<void> {
  await track.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] });
}

export type CameraState =
  | { status: 'idle' }
  | { status: 'starting' }
  /** `muted`: the track says it sends no picture for now (`MediaStreamTrack.muted`); it may come back by itself. */
  | { status: 'live'; stream: MediaStream; width: number; height: number; torch: boolean | null; muted: boolean }
  | { status: 'paused' }
  | { status: 'error'; error: CameraError };

/**
 * A camera for one screen: start() when the screen opens, stop() when it closes. While the page
 * is hidden the camera is released; it restarts when the page is visible again. The torch is
 * restored after a restart.
 */
export class CameraSession {
  private stream: MediaStream | null = null;
  private torchOn = false;
  private stopped = true;
  private generation = 0;
  /** Removes the live track's `ended`, `mute` and `unmute` listeners (`release`). */
  private unlisten = (): void => undefined;
  private readonly onVisibility = () => void this.handleVisibility();

  constructor(
    private readonly request: CameraRequest,
    private readonly onState: (state: CameraState) => void,
    private readonly devices?: MediaDevicesLike,
    private readonly doc: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'> | undefined = typeof document === 'undefined' ? undefined : document,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    this.doc?.addEventListener('visibilitychange', this.onVisibility);
    if (this.doc?.visibilityState === 'hidden') {
      this.onState({ status: 'paused' });
      return;
    }
    await this.open();
  }

  stop(): void {
    this.stopped = true;
    this.generation++;
    this.doc?.removeEventListener('visibilitychange', this.onVisibility);
    this.release();
    this.onState({ status: 'idle' });
  }

  /**
   * Lets the camera go and opens it again: for a camera that went quiet (`quietCamera.ts`), which a
   * new stream often wakes (a hung driver), or says would not start (another app keeps it).
   */
  async restart(): Promise<void> {
    if (this.stopped || this.doc?.visibilityState === 'hidden') return;
    this.release();
    await this.open();
  }

  /** Turns the torch on or off; resolves false where the camera has none. */
  async setTorch(on: boolean): Promise<boolean> {
    const track = this.stream?.getVideoTracks()[0];
    if (!track || !torchSupported(track)) return false;
    await applyTorch(track, on);
    this.torchOn = on;
    this.publishLive(track);
    return true;
  }

  private async open(): Promise<void> {
    const generation = ++this.generation;
    this.onState({ status: 'starting' });
    let stream: MediaStream;
    try {
      stream = await openCameraStream(this.request, this.devices);
    } catch (err) {
      if (generation === this.generation) this.onState({ status: 'error', error: cameraErrorFrom(err) });
      return;
    }
    // Stopped or restarted while the camera was opening: let this stream go.
    if (generation !== this.generation || this.stopped) {
      for (const t of stream.getTracks()) t.stop();
      return;
    }
    this.stream = stream;
    const track = stream.getVideoTracks()[0];
    if (!track) {
      this.release();
      this.onState({ status: 'error', error: new CameraError('unavailable', 'the stream has no video') });
      return;
    }
    const ended = (): void => {
      if (this.stream === stream && !this.stopped) {
        this.release();
        this.onState({ status: 'error', error: new CameraError('stopped', 'the track ended') });
      }
    };
    // muted and unmuted: the same stream, said again with the track's word for it
    const mutedOrNot = (): void => {
      if (this.stream === stream && !this.stopped) this.publishLive(track);
    };
    track.addEventListener('ended', ended);
    track.addEventListener('mute', mutedOrNot);
    track.addEventListener('unmute', mutedOrNot);
    this.unlisten = () => {
      track.removeEventListener('ended', ended);
      track.removeEventListener('mute', mutedOrNot);
      track.removeEventListener('unmute', mutedOrNot);
    };
    if (this.torchOn && torchSupported(track)) await applyTorch(track, true).catch(() => undefined);
    this.publishLive(track);
  }

  private publishLive(track: MediaStreamTrack): void {
    if (!this.stream) return;
    const settings = track.getSettings();
    this.onState({
      status: 'live',
      stream: this.stream,
      width: settings.width ?? 0,
      height: settings.height ?? 0,
      torch: torchSupported(track) ? this.torchOn : null,
      muted: track.muted === true,
    });
  }

  private release(): void {
    // The listeners go with the track: Chromium keeps a stopped stream alive while a <video> left
    // the page still holds it, and its track's listener held this session, its onState and the
    // whole camera view (192 DOM nodes each time the camera was turned off and on;
    // `npm run bench -- --only soak`).
    this.unlisten();
    this.unlisten = () => undefined;
    if (this.stream) for (const t of this.stream.getTracks()) t.stop();
    this.stream = null;
  }

  private async handleVisibility(): Promise<void> {
    if (this.stopped) return;
    if (this.doc?.visibilityState === 'hidden') {
      this.generation++;
      this.release();
      this.onState({ status: 'paused' });
    } else if (!this.stream) {
      await this.open();
    }
  }
}
