import { newRouter } from "../../openapi/router.ts";
import { likeRoutes } from "./likes/routes.ts";
import { readRoutes, writeRoutes } from "./routes.ts";
import { trackRoutes } from "./tracks/routes.ts";

/** /api/v1/playlists */
export const playlistRoutes = newRouter()
  .route("/", readRoutes)
  .route("/", writeRoutes)
  .route("/", trackRoutes)
  .route("/", likeRoutes);
