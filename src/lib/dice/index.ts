import type { DiceKit } from './kit.ts';
import standard from './kits/standard/kit.json';
import corellianSpike from './kits/corellian-spike/kit.json';
import faceOff from './kits/face-off/kit.json';

export * from './kit.ts';

export const STANDARD_KIT: DiceKit = standard;
export const CORELLIAN_SPIKE_KIT: DiceKit = corellianSpike;
export const FACE_OFF_KIT: DiceKit = faceOff;

/** The kits that ship with the app, by id. */
// Without a prototype: a kit id from a file ("constructor", "tostring"…) finds no kit here,
// never one of Object's own properties.
export const BUILT_IN_KITS: Readonly<Record<string, DiceKit>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, DiceKit>, {
    [STANDARD_KIT.id]: STANDARD_KIT,
    [CORELLIAN_SPIKE_KIT.id]: CORELLIAN_SPIKE_KIT,
    [FACE_OFF_KIT.id]: FACE_OFF_KIT,
  }),
);

export * from './validate.ts';
export * from './bundle.ts';
export * from './data-url.ts';
