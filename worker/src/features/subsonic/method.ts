import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { RequestDeps } from "../../request-deps.ts";
import type { Caller } from "./credentials.ts";
import type { SubsonicNode } from "./respond.ts";

/** What the Subsonic methods may take of the request. */
export type SubsonicDeps = Pick<
  RequestDeps,
  "db" | "env" | "now" | "ip" | "log" | "waitUntil" | "storage"
>;

/** The request as a method sees it: its parameters (query and form) and the headers it reads. */
export interface CallInput {
  params: URLSearchParams;
  range: string | undefined;
  ifNoneMatch: string | undefined;
  /** Where the edge says the caller is (`countryOf`), for the plays a scrobble reports. */
  country: string;
}

export interface Answering<A> {
  deps: SubsonicDeps;
  args: A;
  caller: Caller;
  /** What `reads` sent, answered in the same round trip as the credential check. */
  results: unknown[];
  /** What `writes` answered (in the same round trip, or the one after the verdict). */
  written: unknown[];
  call: CallInput;
}

/**
 * One method of the protocol: its arguments read from the parameters (a missing one is error 10,
 * before any round trip), the reads that ride with the credential check in the request's one
 * batch, and the answer made of their results (a body for the envelope, or bytes).
 */
export interface Method<A> {
  args: (params: URLSearchParams) => A;
  /** `claimedUserId`: see CredentialCheck (a listener's own rows, used only for a listener). */
  reads?: (deps: SubsonicDeps, args: A, claimedUserId: SQL) => BatchItem<"pg">[];
  /**
   * The statements that change something, made for the proved caller (a rule it breaks, such as
   * an artist starring, is thrown here, before anything is sent). They go in the call's one batch
   * when the isolate remembers the credential (ADR 0029), else in a second round trip after the
   * verdict. A check among them (`checks.ts`) that fails aborts them all: a write is whole or not
   * at all.
   */
  writes?: (deps: SubsonicDeps, args: A, caller: Caller) => BatchItem<"pg">[];
  answer: (input: Answering<A>) => SubsonicNode | Response | Promise<SubsonicNode | Response>;
}

/** A method as the table holds it (its argument type erased). */
export type AnyMethod = Method<unknown>;
export const method = <A>(m: Method<A>): AnyMethod => m as unknown as AnyMethod;

/** A method with no arguments. */
export const noArgs = () => undefined;

/** Methods answered without credentials (OpenSubsonic: getOpenSubsonicExtensions). */
export interface OpenMethod {
  answer: () => SubsonicNode;
}
