import type { PrincipalKind } from "../../auth/kinds.ts";
import { newRouter } from "../../openapi/router.ts";
import { oauthRoutes } from "./routes/oauth.ts";
import { passwordRoutes } from "./routes/password.ts";
import { sessionRoutes } from "./routes/session.ts";
import { twoFactorRoutes } from "./routes/two-factor.ts";

/** The auth sub-app of one account kind; mounted at /api/v1/users/auth and /api/v1/artists/auth. */
export function authRoutes(kind: PrincipalKind) {
  return newRouter()
    .route("/", sessionRoutes(kind))
    .route("/", twoFactorRoutes(kind))
    .route("/", oauthRoutes(kind))
    .route("/", passwordRoutes(kind));
}

export { sessionRoutes };
