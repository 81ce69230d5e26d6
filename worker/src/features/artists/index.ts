import { newRouter } from "../../openapi/router.ts";
import { artistCatalogueRoutes } from "./catalogue/routes.ts";
import { artistProfileRoutes } from "./profile/routes.ts";
import { artistSocialRoutes } from "./social/routes.ts";
import { artistStatsRoutes } from "./stats/routes.ts";

/**
 * /api/v1/artists: profiles, follows, likes, an artist's tracks and albums. The social routes
 * come first: `/me/following` and `/me/liked` must not be taken for an artist id.
 */
export const artistRoutes = newRouter()
  .route("/", artistSocialRoutes)
  .route("/", artistStatsRoutes)
  .route("/", artistProfileRoutes)
  .route("/", artistCatalogueRoutes);
