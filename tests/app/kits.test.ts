import { describe, expect, it } from 'vitest';
import { CORELLIAN_SPIKE_KIT, FACE_OFF_KIT, STANDARD_KIT, parseKit } from '../../src/lib/dice/index.ts';
import type { TaughtSetRecord } from '../../src/lib/store/types.ts';
import { defaultSetName, deleteSetQuestion, faceStatusText, lostSetNote, kitFromForm, kitReadsPips, readableKits, separationVerdict, shortKitName, standsInFor, type FaceDraft } from '../../src/app/kits.ts';
import type { FaceSeparation, KitSeparation } from '../../src/lib/vision/face-reader.ts';

const drafts = (labels: string[], values: Array<string> = labels.map(() => '')): FaceDraft[] => labels.map((label, i) => ({ label, value: values[i]!, group: '' }));

/** An own kit for dice with a logo on the 1: faces named and valued like pips. */
const logoDice = kitFromForm('Logo dice', drafts(['1', '2', '3', '4', '5', '6'], ['1', '2', '3', '4', '5', '6']));

const ownSet = (id: string, kit = logoDice): TaughtSetRecord => ({ id, kitId: kit.id, name: kit.name, createdAt: 1, updatedAt: 1, kit, art: {} });

describe('which kits read pips', () => {
  it('the built-in standard kit reads pips; symbol kits read their faces', () => {
    expect(kitReadsPips(STANDARD_KIT)).toBe(true);
    expect(kitReadsPips(CORELLIAN_SPIKE_KIT)).toBe(false);
    expect(kitReadsPips(FACE_OFF_KIT)).toBe(false);
  });

  it('an own kit whose faces look like pips ("1"…"6", valued 1–6) is read from its taught photos, not as pips', () => {
    expect(logoDice.faces.map((f) => [f.id, f.value])).toEqual([['1', 1], ['2', 2], ['3', 3], ['4', 4], ['5', 5], ['6', 6]]);
    expect(logoDice.id).not.toBe(STANDARD_KIT.id);
    expect(kitReadsPips(logoDice)).toBe(false);
  });

  it("the form's slips are said in the player's words", () => {
    expect(() => kitFromForm('Runes', drafts(['Sun', '']))).toThrow('Face 2 needs a name.');
    expect(() => kitFromForm('Runes', drafts(['Sun', 'Moon'], ['1,5', '2']))).toThrow('The value of face 1 (Sun) must be a number, such as 3 or 1.5 (with a dot), or left empty.');
    expect(() => kitFromForm('Runes', drafts(['Sun', 'Moon'], ['1', '1e400']))).toThrow(/^The value of face 2 \(Moon\)/);
    expect(kitFromForm('Runes', drafts(['Sun', 'Moon'], ['1.5', ''])).faces.map((f) => f.value)).toEqual([1.5, null]);
  });

  it('an own kit never takes a built-in kit id', () => {
    expect(kitFromForm('Standard', drafts(['a', 'b'])).id).toBe('standard-own');
  });

  it('steps around names JavaScript objects keep for themselves, which the kit validator refuses as ids', () => {
    const kit = kitFromForm('Prototype', drafts(['Constructor', 'To String', 'Moon']));
    expect(kit.id).toBe('prototype-own');
    expect(kit.faces.map((f) => f.id)).toEqual(['constructor-face', 'to-string', 'moon']);
  });
});

describe('dice that stand in for a game’s kit', () => {
  it('an own kit valued 1–6 plays wherever pip dice do (and Corellian Spike, valued 1–6 too)', () => {
    expect(standsInFor(logoDice, STANDARD_KIT)).toBe(true);
    expect(standsInFor(logoDice, CORELLIAN_SPIKE_KIT)).toBe(true);
    expect(standsInFor(logoDice, FACE_OFF_KIT)).toBe(false);
  });

  it('a kit of other values or another number of faces does not', () => {
    expect(standsInFor(kitFromForm('Odd', drafts(['a', 'b', 'c', 'd', 'e', 'f'], ['1', '2', '3', '4', '5', '7'])), STANDARD_KIT)).toBe(false);
    expect(standsInFor(kitFromForm('Five', drafts(['a', 'b', 'c', 'd', 'e'], ['1', '2', '3', '4', '5'])), STANDARD_KIT)).toBe(false);
  });

  it('a game of pip dice lists pip reading first, then the own kits standing in for it, read from their photos', () => {
    const faceOffSet = ownSet('s2', kitFromForm('Heroes', drafts(['a', 'b', 'c', 'd', 'e', 'f'])));
    const photos = new Map([['s1', logoDice.faces.flatMap((f) => [{ faceId: f.id }, { faceId: f.id }, { faceId: f.id }])]]);
    const kits = readableKits(STANDARD_KIT.id, [ownSet('s1'), faceOffSet], photos);
    expect(kits.map((k) => [k.name, k.reads, kits.indexOf(k) === 0 ? k.kit.id : k.dice.taughtSetId])).toEqual([
      ['Standard dice', 'pips', 'standard'],
      ['Logo dice', 'taught', 's1'],
    ]);
    expect(kits[1]!.note).toBe('taught: 18 views, every face');
    expect(kitReadsPips(kits[1]!.kit)).toBe(false);
  });
});

describe('kit and dice set names', () => {
  const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}';

  it('the form refuses a face named with nothing visible, and a name over 40 symbols; 40 emoji fit', () => {
    expect(() => kitFromForm('Runes', drafts(['Sun', '\u200b']))).toThrow('Face 2 needs a name.');
    expect(() => kitFromForm('x'.repeat(41), drafts(['Sun', 'Moon']))).toThrow('Names are at most 40 characters ("xxxxxxxxxxxxxxxxxxxx…" has 41).');
    expect(() => kitFromForm('Runes', drafts(['Sun', 'y'.repeat(41)]))).toThrow('Face 2: Names are at most 40 characters');
    expect(kitFromForm(FAMILY.repeat(40), drafts([FAMILY.repeat(40), 'Moon'])).name).toBe(FAMILY.repeat(40));
  });

  it('a kit file with a name of nothing visible is refused', () => {
    expect(() => parseKit({ id: 'runes', name: '\u200b', faces: [{ id: 'a', label: 'A', value: null, group: null }, { id: 'b', label: 'B', value: null, group: null }] })).toThrow('"name" must be a non-empty string');
    expect(() => parseKit({ id: 'runes', name: 'Runes', faces: [{ id: 'a', label: '\u00ad', value: null, group: null }, { id: 'b', label: 'B', value: null, group: null }] })).toThrow('.label (a): must be a non-empty string');
  });

  it("a new set's default name is cut between symbols", () => {
    const kit = kitFromForm(FAMILY.repeat(40), drafts(['Sun', 'Moon']));
    expect(defaultSetName(kit, [])).toBe(`My ${FAMILY.repeat(37)}`);
  });
});

describe('what is taught is a "view", on every screen', () => {
  // Teach takes views ("Take this view", "2 of 3 views") and Dice kits counts them ("3 taught
  // views"): its verdicts, and New game's note, call them so too, not photos or pictures.
  const face = (faceId: string, examples: number, status: FaceSeparation['status'], closestFaceId: string | null = null): FaceSeparation => ({
    faceId,
    examples,
    separated: null,
    closestFaceId,
    closestSimilarity: null,
    status,
  });
  const ids = FACE_OFF_KIT.faces.map((f) => f.id);
  const separation = (faces: FaceSeparation[], score: number | null, ready = false): KitSeparation => ({ faces, score, ready, closestPair: ready ? { faceIds: [ids[0]!, ids[1]!], similarity: 0.9 } : null });
  const cases: KitSeparation[] = [
    separation(ids.map((id) => face(id, 3, 'good')), 1, true),
    separation(ids.map((id, i) => face(id, 3, i === 0 ? 'confusable' : 'good', ids[1]!)), 0.9),
    separation(ids.map((id, i) => face(id, i < 2 ? 2 : 0, i < 2 ? 'needs-more' : 'missing')), 0.75),
    separation(ids.map((id, i) => face(id, i < 2 ? 2 : 0, i < 2 ? 'needs-more' : 'missing')), 1),
  ];

  it('in the teach screen\'s verdicts and face lines', () => {
    const said = cases.flatMap((c) => {
      const verdict = separationVerdict(FACE_OFF_KIT, c, true);
      return [verdict.headline, verdict.advice ?? '', ...c.faces.map((f) => faceStatusText(FACE_OFF_KIT, f))];
    });
    expect(said.filter((text) => /photo|picture/i.test(text))).toEqual([]);
    expect(said.filter((text) => /\bviews?\b/.test(text)).length).toBeGreaterThan(4);
  });

  it('says before anything is taught what reads the dice meanwhile: the printed faces, or nothing for a kit without art', () => {
    const untaught = separation(ids.map((id) => face(id, 0, 'missing')), null);
    expect(separationVerdict(FACE_OFF_KIT, untaught, true).headline).toBe('Nothing taught yet: dice are read by the printed faces.');
    // a kit made on this phone has no printed faces; New game says "cannot be read until taught" of it too
    expect(separationVerdict(FACE_OFF_KIT, untaught, false).headline).toBe('Nothing taught yet: these dice cannot be read until taught.');
  });
});

describe('the question before a taught set is deleted', () => {
  const players = (...names: string[]) => names.map((name, i) => ({ id: `p${i}`, name }));
  const faceOff = { game: 'face-off', players: players('Ann', 'Bob'), dice: { kitId: FACE_OFF_KIT.id, taughtSetId: 's1' } };
  const farkle = { game: 'five-thousand', players: players('Cy', 'Di'), dice: { kitId: STANDARD_KIT.id, taughtSetId: 's1' } };

  it('says what goes with it', () => {
    expect(deleteSetQuestion('Our dice', 18, [])).toBe('Delete Our dice? Its 18 taught views go for good.');
    expect(deleteSetQuestion('Our dice', 1, [])).toBe('Delete Our dice? Its 1 taught view goes for good.');
    expect(deleteSetQuestion('Our dice', 0, [])).toBe('Delete Our dice? Nothing is taught to it yet.');
  });

  it('names a game in play read with it, and what its table reads instead (loadKitReader falls back to the game\'s own kit)', () => {
    expect(deleteSetQuestion('Our dice', 18, [faceOff])).toBe(
      'Delete Our dice? Its 18 taught views go for good. The game of Star Wars Face Off with Ann, Bob in play reads with it: it will read the printed faces instead.',
    );
    // an own kit standing in for pips: standard dice have no printed faces, the game reads pips again
    expect(deleteSetQuestion('Logo dice', 18, [farkle])).toBe(
      'Delete Logo dice? Its 18 taught views go for good. The game of 5000 (bumps and gifts) with Cy, Di in play reads with it: it will read plain pips instead.',
    );
    expect(deleteSetQuestion('Our dice', 18, [faceOff, farkle])).toMatch(/: they will read their games' own dice \(pips, or the printed faces\) instead\.$/);
    expect(deleteSetQuestion('Our dice', 0, [faceOff, { ...faceOff, players: players('Eve') }])).toBe(
      'Delete Our dice? Nothing is taught to it yet. 2 games in play read with it (Star Wars Face Off with Ann, Bob; Star Wars Face Off with Eve): they will read the printed faces instead.',
    );
  });
});

describe("the table's note once a game's taught set is gone", () => {
  it('says what is read instead, as the delete question said: the printed faces, or pips (standard dice have no printed faces)', () => {
    expect(lostSetNote(FACE_OFF_KIT)).toBe('The taught dice of this game are no longer on this device: the printed faces are read instead.');
    expect(lostSetNote(STANDARD_KIT)).toBe('The taught dice of this game are no longer on this device: plain pips are read instead.');
  });
});

describe('shortKitName', () => {
  it('leaves out the note in brackets after a kit\'s name, and nothing else', () => {
    expect(shortKitName(FACE_OFF_KIT.name)).toBe('Star Wars Face Off dice');
    expect(shortKitName(STANDARD_KIT.name)).toBe('Standard dice');
    expect(shortKitName('Grandpa’s rune dice')).toBe('Grandpa’s rune dice');
    expect(shortKitName('Rune dice (old) ')).toBe('Rune dice');
  });
});
