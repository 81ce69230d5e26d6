// How much of a track was heard: a play is reported once 30 s were, or all of a shorter track.
// Pure (fed the element's positions), so the rule is tested alone (web/test/heard.test.ts).

/** A play counts once this much of the track was heard (the API's rule, ADR 0028). */
export const PLAY_SECONDS = 30;
/**
 * A track shorter than PLAY_SECONDS counts when this share of it was heard: "the whole", less the
 * moments no time update sees (before the first) and the small skips a stream makes over a gap
 * in its buffer (a seek of its own, not heard). A seek to near the end stays far below it.
 */
export const WHOLE_SHARE = 0.9;
/**
 * Time updates come every quarter second or so; a step of the position larger than this is a
 * jump (a seek the element did not announce, a stall skipped), not listening.
 */
const MAX_STEP_SECONDS = 5;

export class HeardTime {
  #seconds = 0;
  /** The position at the last update while playing; null after a jump or a pause. */
  #last: number | null = null;

  /** Seconds heard so far. */
  get seconds(): number {
    return this.#seconds;
  }

  /** The position while the track plays (a `timeupdate`): the step since the last one is heard. */
  at(position: number): void {
    if (!Number.isFinite(position)) return;
    if (this.#last !== null) {
      const step = position - this.#last;
      if (step > 0 && step <= MAX_STEP_SECONDS) this.#seconds += step;
    }
    this.#last = position;
  }

  /** The position moved without being heard (a seek) or stopped: the next update starts anew. */
  jump(): void {
    this.#last = null;
  }

  /** The track played to its end (`duration` seconds long): heard up to there. */
  end(duration: number): void {
    this.at(duration);
    this.#last = null;
  }

  /** Starts a new play: nothing heard. */
  reset(): void {
    this.#seconds = 0;
    this.#last = null;
  }

  /** Whether what was heard is a play of a track `duration` seconds long (unknown: 30 s). */
  counts(duration: number | null | undefined): boolean {
    const known = duration != null && Number.isFinite(duration) && duration > 0;
    const needed = known ? Math.min(PLAY_SECONDS, duration * WHOLE_SHARE) : PLAY_SECONDS;
    return this.#seconds >= Math.max(needed, 0.5);
  }
}
