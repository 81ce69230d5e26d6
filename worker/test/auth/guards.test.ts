import { KINDS } from "../support/auth.ts";
import { describeGuardMatrix, type ProtectedRoute } from "../support/guard-matrix.ts";

const routes: ProtectedRoute[] = [
  { method: "GET", path: "/api/v1/users/me", kind: "user" },
  ...KINDS.flatMap((kind): ProtectedRoute[] => [
    { method: "GET", path: `/api/v1/${kind}s/auth/me`, kind },
    { method: "POST", path: `/api/v1/${kind}s/auth/2fa/enable`, kind, body: {} },
    { method: "POST", path: `/api/v1/${kind}s/auth/2fa/verify`, kind, body: { code: "123456" } },
    { method: "POST", path: `/api/v1/${kind}s/auth/2fa/disable`, kind, body: { code: "123456" } },
  ]),
];

describeGuardMatrix(routes);
