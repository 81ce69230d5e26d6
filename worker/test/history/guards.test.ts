import { describeGuardMatrix, type ProtectedRoute } from "../support/guard-matrix.ts";

// A well-formed id that names no track: past the guard, the route answers 201/404/200, never 401/403.
const trackId = "0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192";

const routes: ProtectedRoute[] = [
  { method: "POST", path: `/api/v1/history/tracks/${trackId}`, kind: "user" },
  { method: "GET", path: "/api/v1/history", kind: "user" },
  { method: "DELETE", path: "/api/v1/history", kind: "user" },
  { method: "DELETE", path: `/api/v1/history/tracks/${trackId}`, kind: "user" },
];

describeGuardMatrix(routes);
