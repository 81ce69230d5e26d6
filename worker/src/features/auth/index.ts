import { newRouter } from "../../openapi/router.ts";
import type { AccountKind } from "../../security/account-kinds.ts";
import { emailRoutes } from "./email/routes.ts";
import { oauthRoutes } from "./oauth/routes.ts";
import { passwordRoutes } from "./password/routes.ts";
import { meRoutes, sessionRoutes } from "./session/routes.ts";
import { sessionControlRoutes } from "./sessions/routes.ts";
import { twoFactorRoutes } from "./two-factor/routes.ts";

/** The auth sub-app of one account kind; mounted at /api/v1/users/auth and /api/v1/artists/auth. */
export function authRoutes(kind: AccountKind) {
  return newRouter()
    .route("/", sessionRoutes(kind))
    .route("/", sessionControlRoutes(kind))
    .route("/", twoFactorRoutes(kind))
    .route("/", oauthRoutes(kind))
    .route("/", passwordRoutes(kind))
    .route("/", emailRoutes(kind));
}

export { meRoutes, sessionRoutes };
