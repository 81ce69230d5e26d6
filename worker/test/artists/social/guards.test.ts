import { describeGuardMatrix, type ProtectedRoute } from "../../support/guard-matrix.ts";

// A well-formed id that names no artist: past the guard, the routes answer 404 (or 200), never 401/403.
const id = "0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192";

const routes: ProtectedRoute[] = [
  { method: "GET", path: "/api/v1/artists/me/following", kind: "user" },
  { method: "GET", path: "/api/v1/artists/me/liked", kind: "user" },
  { method: "POST", path: `/api/v1/artists/${id}/follow`, kind: "user" },
  { method: "DELETE", path: `/api/v1/artists/${id}/follow`, kind: "user" },
  { method: "POST", path: `/api/v1/artists/${id}/like`, kind: "user" },
  { method: "DELETE", path: `/api/v1/artists/${id}/like`, kind: "user" },
];

describeGuardMatrix(routes);
