import { missingParameter, notFound } from "./errors.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A parameter that must be there (error 10 otherwise). */
export function required(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (value === null || value === "") throw missingParameter(name);
  return value;
}

/** An id of ours: a malformed one names nothing (error 70), like an unknown one. */
export function uuidArg(params: URLSearchParams, name: string, what: string): string {
  const value = required(params, name);
  if (!UUID.test(value)) throw notFound(what);
  return value.toLowerCase();
}

/** A whole number, or undefined when absent or not a number. */
export function intArg(params: URLSearchParams, name: string): number | undefined {
  const value = params.get(name);
  if (value === null || !/^-?\d{1,9}$/.test(value)) return undefined;
  return Number(value);
}

/** A boolean as the protocol writes it ("true"/"false"), with its default. */
export function boolArg(params: URLSearchParams, name: string, fallback: boolean): boolean {
  const value = params.get(name);
  if (value === null) return fallback;
  return value.toLowerCase() === "true";
}

export const isUuid = (value: string) => UUID.test(value);
