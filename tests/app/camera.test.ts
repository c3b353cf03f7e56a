import { describe, expect, it } from 'vitest';
import { CameraError, CameraSession, cameraErrorFrom, constraintLadder, listCameras, openCameraStream, type CameraState, type MediaDevicesLike } from '../../src/app/camera.ts';

const domError = (name: string, message = name): Error => Object.assign(new Error(message), { name });

class FakeTrack extends EventTarget {
  stopped = false;
  torch = false;
  muted = false;
  /** Listeners added and not removed, by event type. */
  listeners: Record<string, number> = {};
  constructor(private readonly hasTorch = false) {
    super();
  }
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: AddEventListenerOptions | boolean): void {
    this.listeners[type] = (this.listeners[type] ?? 0) + 1;
    super.addEventListener(type, listener, options);
  }
  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: EventListenerOptions | boolean): void {
    this.listeners[type] = (this.listeners[type] ?? 0) - 1;
    super.removeEventListener(type, listener, options);
  }
  /** The browser mutes or unmutes the track (another app takes the camera, and gives it back). */
  setMuted(muted: boolean): void {
    this.muted = muted;
    this.dispatchEvent(new Event(muted ? 'mute' : 'unmute'));
  }
  stop(): void {
    this.stopped = true;
  }
  getSettings(): MediaTrackSettings {
    return { width: 1280, height: 720 };
  }
  getCapabilities(): MediaTrackCapabilities {
    return this.hasTorch ? ({ torch: true } as MediaTrackCapabilities) : {};
  }
  async applyConstraints(c: MediaTrackConstraints): Promise<void> {
    this.torch = Boolean((c.advanced?.[0] as { torch?: boolean } | undefined)?.torch);
  }
}

function fakeStream(track: FakeTrack): MediaStream {
  return { getTracks: () => [track], getVideoTracks: () => [track] } as unknown as MediaStream;
}

/** A camera that opens a new track each time it is asked, and the tracks it opened. */
function cameraOpeningTracks(hasTorch = false): { media: MediaDevicesLike; tracks: FakeTrack[] } {
  const tracks: FakeTrack[] = [];
  const media: MediaDevicesLike = {
    async getUserMedia() {
      const t = new FakeTrack(hasTorch);
      tracks.push(t);
      return fakeStream(t);
    },
    async enumerateDevices() {
      return [];
    },
  };
  return { media, tracks };
}

/** A camera API that fails each request with the next error, then succeeds. */
function devices(failures: Error[], track = new FakeTrack()): MediaDevicesLike & { requests: MediaStreamConstraints[] } {
  const requests: MediaStreamConstraints[] = [];
  return {
    requests,
    async getUserMedia(c?: MediaStreamConstraints) {
      requests.push(c ?? {});
      const failure = failures.shift();
      if (failure) throw failure;
      return fakeStream(track);
    },
    async enumerateDevices() {
      return [
        { kind: 'audioinput', deviceId: 'mic', label: 'Mic', groupId: '' },
        { kind: 'videoinput', deviceId: 'front', label: '', groupId: '' },
        { kind: 'videoinput', deviceId: 'back', label: 'Back camera', groupId: '' },
      ] as MediaDeviceInfo[];
    },
  };
}

describe('camera constraints', () => {
  it('never asks for an exact size or facing mode', () => {
    for (const c of constraintLadder()) {
      expect(JSON.stringify(c)).not.toContain('exact');
    }
    expect(constraintLadder()[0]!.video).toMatchObject({ facingMode: { ideal: 'environment' }, width: { ideal: 1280 } });
    expect(constraintLadder().at(-1)).toEqual({ video: true, audio: false });
  });

  it('tries a picked camera exactly first, then the rear camera', () => {
    const ladder = constraintLadder({ deviceId: 'cam-2' });
    expect(ladder[0]!.video).toMatchObject({ deviceId: { exact: 'cam-2' } });
    expect(ladder[1]!.video).toMatchObject({ facingMode: { ideal: 'environment' } });
  });
});

describe('opening the camera', () => {
  it('falls back through looser constraints when over-constrained', async () => {
    const media = devices([domError('OverconstrainedError'), domError('OverconstrainedError')]);
    const stream = await openCameraStream({}, media);
    expect(stream.getVideoTracks()).toHaveLength(1);
    expect(media.requests).toHaveLength(3);
  });

  it('falls back from a picked camera that is gone', async () => {
    const media = devices([domError('NotFoundError')]);
    await openCameraStream({ deviceId: 'unplugged' }, media);
    expect(media.requests[1]!.video).toMatchObject({ facingMode: { ideal: 'environment' } });
  });

  it('stops at a refusal, without asking again', async () => {
    const media = devices([domError('NotAllowedError')]);
    const err = await openCameraStream({}, media).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CameraError);
    expect((err as CameraError).kind).toBe('denied');
    expect((err as CameraError).message).toMatch(/enter the dice by hand/i);
    expect(media.requests).toHaveLength(1);
  });

  it('reports absent when no request finds a camera', async () => {
    const media = devices(Array.from({ length: 10 }, () => domError('NotFoundError')));
    const err = (await openCameraStream({}, media).catch((e: unknown) => e)) as CameraError;
    expect(err.kind).toBe('absent');
    expect(media.requests).toHaveLength(constraintLadder().length);
  });

  it('reports a busy camera as unavailable', async () => {
    const media = devices(Array.from({ length: 10 }, () => domError('NotReadableError')));
    expect(((await openCameraStream({}, media).catch((e: unknown) => e)) as CameraError).kind).toBe('unavailable');
  });

  it('reports a browser without a camera API', async () => {
    const err = (await openCameraStream({}, {} as MediaDevicesLike).catch((e: unknown) => e)) as CameraError;
    expect(['unsupported', 'insecure']).toContain(err.kind);
  });

  it('maps error names', () => {
    expect(cameraErrorFrom(domError('SecurityError')).kind).toBe('denied');
    expect(cameraErrorFrom({ name: 'OverconstrainedError', constraint: 'width' }).kind).toBe('absent');
    expect(cameraErrorFrom(domError('AbortError')).kind).toBe('unavailable');
  });

  it('lists cameras with readable labels', async () => {
    expect(await listCameras(devices([]))).toEqual([
      { deviceId: 'front', label: 'Camera 1' },
      { deviceId: 'back', label: 'Back camera' },
    ]);
  });
});

class FakeDocument extends EventTarget {
  visibilityState: DocumentVisibilityState = 'visible';
  setVisibility(v: DocumentVisibilityState): void {
    this.visibilityState = v;
    this.dispatchEvent(new Event('visibilitychange'));
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('camera session', () => {
  it('goes live, releases the camera while the page is hidden, and comes back', async () => {
    const { media, tracks } = cameraOpeningTracks(true);
    const doc = new FakeDocument();
    const states: CameraState['status'][] = [];
    let last: CameraState = { status: 'idle' };
    const session = new CameraSession({}, (s) => {
      states.push(s.status);
      last = s;
    }, media, doc);
    await session.start();
    expect(last).toMatchObject({ status: 'live', width: 1280, height: 720, torch: false });
    expect(await session.setTorch(true)).toBe(true);
    expect(tracks[0]!.torch).toBe(true);

    doc.setVisibility('hidden');
    await tick();
    expect(tracks[0]!.stopped).toBe(true);
    expect(last.status).toBe('paused');

    doc.setVisibility('visible');
    await tick();
    await tick();
    expect(tracks).toHaveLength(2);
    expect(last).toMatchObject({ status: 'live', torch: true });
    expect(tracks[1]!.torch).toBe(true);

    session.stop();
    expect(tracks[1]!.stopped).toBe(true);
    doc.setVisibility('hidden');
    doc.setVisibility('visible');
    await tick();
    expect(tracks).toHaveLength(2);
    expect(states).toEqual(['starting', 'live', 'live', 'paused', 'starting', 'live', 'idle']);
  });

  it('says the camera stopped when a live track ends (another app took it), not that it would not start', async () => {
    const track = new FakeTrack();
    let last: CameraState = { status: 'idle' };
    const session = new CameraSession({}, (s) => (last = s), devices([], track), new FakeDocument());
    await session.start();
    expect(last.status).toBe('live');
    track.dispatchEvent(new Event('ended'));
    expect(last).toMatchObject({ status: 'error', error: { kind: 'stopped' } });
    expect(track.stopped).toBe(true);
  });

  it('turns a failure into an error state', async () => {
    let last: CameraState = { status: 'idle' };
    const session = new CameraSession({}, (s) => (last = s), devices([domError('NotAllowedError')]), new FakeDocument());
    await session.start();
    expect(last).toMatchObject({ status: 'error', error: { kind: 'denied' } });
  });

  it('says so when the camera has no torch', async () => {
    let last: CameraState = { status: 'idle' };
    const session = new CameraSession({}, (s) => (last = s), devices([]), new FakeDocument());
    await session.start();
    expect(last).toMatchObject({ status: 'live', torch: null });
    expect(await session.setTorch(true)).toBe(false);
  });

  it('drops a stream that arrives after stop()', async () => {
    let resolve: (s: MediaStream) => void = () => undefined;
    const track = new FakeTrack();
    const media: MediaDevicesLike = {
      getUserMedia: () => new Promise<MediaStream>((r) => (resolve = r)),
      async enumerateDevices() {
        return [];
      },
    };
    const session = new CameraSession({}, () => undefined, media, new FakeDocument());
    const started = session.start();
    session.stop();
    resolve(fakeStream(track));
    await started;
    expect(track.stopped).toBe(true);
  });

  it('says when the live track is muted and unmuted, the same stream live all along', async () => {
    const track = new FakeTrack();
    const states: CameraState[] = [];
    const session = new CameraSession({}, (s) => states.push(s), devices([], track), new FakeDocument());
    await session.start();
    expect(states.at(-1)).toMatchObject({ status: 'live', muted: false });
    const stream = (states.at(-1) as Extract<CameraState, { status: 'live' }>).stream;
    track.setMuted(true);
    expect(states.at(-1)).toMatchObject({ status: 'live', muted: true, stream });
    track.setMuted(false);
    expect(states.at(-1)).toMatchObject({ status: 'live', muted: false, stream });
    expect(track.stopped).toBe(false);
    session.stop();
    // a track muted after the camera was let go of says nothing more
    const said = states.length;
    track.setMuted(true);
    expect(states).toHaveLength(said);
  });

  it('goes live muted when the track is muted already', async () => {
    const track = new FakeTrack();
    track.muted = true;
    let last: CameraState = { status: 'idle' };
    const session = new CameraSession({}, (s) => (last = s), devices([], track), new FakeDocument());
    await session.start();
    expect(last).toMatchObject({ status: 'live', muted: true });
    session.stop();
  });

  it('lets go of each track it stops, its ended, mute and unmute listeners with it (a stopped stream Chromium keeps would keep the session, and the camera view, alive)', async () => {
    const { media, tracks } = cameraOpeningTracks();
    const doc = new FakeDocument();
    const session = new CameraSession({}, () => undefined, media, doc);
    await session.start();
    expect(tracks[0]!.listeners).toEqual({ ended: 1, mute: 1, unmute: 1 });
    doc.setVisibility('hidden');
    expect(tracks[0]!.listeners).toEqual({ ended: 0, mute: 0, unmute: 0 });
    doc.setVisibility('visible');
    await tick();
    await tick();
    await session.restart();
    expect(tracks).toHaveLength(3);
    expect(tracks[1]!.listeners).toEqual({ ended: 0, mute: 0, unmute: 0 });
    expect(tracks[2]!.listeners).toEqual({ ended: 1, mute: 1, unmute: 1 });
    session.stop();
    expect(tracks.map((t) => t.listeners)).toEqual([0, 1, 2].map(() => ({ ended: 0, mute: 0, unmute: 0 })));
  });

  it('restarts a live camera: the stream let go of, a new one opened, the torch kept', async () => {
    const { media, tracks } = cameraOpeningTracks(true);
    const states: CameraState['status'][] = [];
    let last: CameraState = { status: 'idle' };
    const session = new CameraSession({}, (s) => {
      states.push(s.status);
      last = s;
    }, media, new FakeDocument());
    await session.start();
    await session.setTorch(true);
    tracks[0]!.setMuted(true);
    await session.restart();
    expect(tracks[0]!.stopped).toBe(true);
    expect(tracks).toHaveLength(2);
    expect(last).toMatchObject({ status: 'live', muted: false, torch: true });
    expect(tracks[1]!.torch).toBe(true);
    expect(states).toEqual(['starting', 'live', 'live', 'live', 'starting', 'live']);
    // stopped, or hidden: nothing is opened
    session.stop();
    await session.restart();
    expect(tracks).toHaveLength(2);
  });
});
