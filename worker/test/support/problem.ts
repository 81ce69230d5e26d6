import { expect } from "vitest";

/** Asserts an RFC 9457 problem response of our shape and returns its body. */
export async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status, code, type: expect.stringMatching(/^urn:problem-type:/) });
  expect(typeof body.title).toBe("string");
  expect(typeof body.detail).toBe("string");
  expect(body.requestId).toBe(response.headers.get("x-request-id"));
  return body;
}
