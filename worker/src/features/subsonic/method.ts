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
